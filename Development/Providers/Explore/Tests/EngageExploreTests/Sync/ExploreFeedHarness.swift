@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageExploreCTX
@_spi(EngageProvider) @testable import EngageExploreGiftCards
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
import ExploreEmulator
import Foundation
import Logging
import Testing
#if PiggyCards
    @_spi(EngageProvider) @testable import EngageExplorePiggyCards
#endif

/// A directory feed on 127.0.0.1 and an Engage instance whose Explore provider syncs from it into its
/// own temporary folder. Feed and provider share one `FakeClock`.
struct ExploreFeedHarness {
    let clock = FakeClock(now: Date(timeIntervalSince1970: 1_763_700_000))
    let folder: URL
    let feed: ExploreFeedEmulator
    let ctx: CTXEmulator
    #if PiggyCards
        let piggyCards = PiggyCardsEmulator()
    #endif
    let host: SandboxHost
    let feedURL: URL
    let ctxURL: URL
    #if PiggyCards
        let piggyCardsURL: URL
    #endif

    /// A harness whose `.delay` faults wait at `gate` (when given) instead of sleeping.
    init(gate: TestGate? = nil) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("explore-tests-sync-\(UUID().uuidString)")
        feed = try ExploreFeedEmulator(folder: folder.appendingPathComponent("feed"))
        ctx = CTXEmulator()
        let clock = clock
        var emulators: [any Emulator] = [feed, ctx]
        #if PiggyCards
            emulators.append(piggyCards)
        #endif
        let sleep: @Sendable (Duration) async throws -> Void =
            if let gate { { _ in await gate.pass() } } else { { try await Task.sleep(for: $0) } }
        host = SandboxHost(emulators: emulators, configuration: SandboxConfiguration(now: { clock.now }, sleep: sleep))
        let endpoints = try await host.start()
        feedURL = try #require(endpoints.baseURL(for: "explore-feed"))
        ctxURL = try #require(endpoints.baseURL(for: "ctx"))
        #if PiggyCards
            piggyCardsURL = try #require(endpoints.baseURL(for: "piggycards"))
        #endif
    }

    /// The client's directory folder.
    var clientFolder: URL { folder.appendingPathComponent("client") }

    /// Publishes a shared generated directory (`rows`, `seed`) for `network`.
    @discardableResult
    func publish(
        rows: Int = 2_000, seed: UInt64 = 21, network: ExploreFeedEmulator.Network = .mainnet, timestamp: Int64
    ) throws -> ExploreFeedEmulator.Manifest {
        let (fixture, _) = try ExploreFixture.shared(rows: rows, seed: seed)
        return try feed.publish(databaseAt: URL(fileURLWithPath: fixture.path), network: network, timestamp: timestamp)
    }

    func exploreConfiguration(_ adjust: (inout ExploreConfiguration) -> Void = { _ in }) -> ExploreConfiguration {
        var explore = ExploreConfiguration(feedURL: feedURL, directoryFolder: clientFolder.path, syncsAutomatically: false)
        explore.giftCards[CTXGiftCards.self] = CTXConfiguration(baseURL: ctxURL, clientID: "engagekit-tests")
        #if PiggyCards
            explore.giftCards[PiggyCardsGiftCards.self] = PiggyCardsConfiguration(baseURL: piggyCardsURL)
        #endif
        adjust(&explore)
        return explore
    }

    func start(
        _ explore: ExploreConfiguration? = nil, storage: StorageLocation = .inMemory, logger: Logger = Logger(label: "explore-tests"),
        logLevel: Logger.Level = .error, transport: (any HTTPTransport)? = nil, connectivity: Connectivity? = nil
    ) async throws -> (Engage, ExploreProvider) {
        var configuration = EngageConfiguration.preset(.testing, appID: "org.engagekit.explore-tests")
        configuration.logLevel = logLevel
        configuration.network.timeoutSeconds = 20  // generous: the suite runs hundreds of tests at once
        configuration.storage = storage
        try configuration.setProvider(.explore, explore ?? exploreConfiguration())
        var environment = RegistryEnvironment(
            clock: clock, random: SeededRandomSource(seed: 5), secretStore: InMemorySecretStore(), logger: logger
        )
        if let transport { environment.transport = transport }
        if let connectivity { environment.connectivity = connectivity }
        let engage = try await Engage.start(configuration: configuration, environment: environment)
        return (engage, try await engage.provider(ExploreProvider.self))
    }

    /// Leftover `incoming-…` folders of a network (a sync must always clean up).
    func leftovers(_ network: ExploreNetwork = .mainnet) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: clientFolder.appendingPathComponent(network.rawValue).path)) ?? []
        return names.filter { $0.hasPrefix("incoming-") }
    }

    func stop() async {
        await host.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
