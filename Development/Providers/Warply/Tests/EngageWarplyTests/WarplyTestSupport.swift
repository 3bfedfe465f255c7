@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageWarply
import Foundation
import Logging
import Testing
import WarplyEmulator

/// A sandbox serving the Warply emulator on 127.0.0.1 and an Engage instance with the Warply
/// provider pointed at it. Both share one `FakeClock` (starting at the real now), so advancing it
/// expires tokens on both sides.
struct WarplyHarness {
    static let appUUID = "f83dfde1145e4c2da69793abb2f579af"
    let clock = FakeClock(now: Date())
    let emulator: WarplyEmulator
    let host: SandboxHost
    let baseURL: URL
    /// How the provider signs (the configuration's default, `.merchant`, unless a test of device
    /// registration asks otherwise).
    let signing: WarplyConfiguration.Signing

    init(signing: WarplyConfiguration.Signing = .merchant, emulatorConfiguration: WarplyEmulator.Configuration = .init()) async throws {
        self.signing = signing
        emulator = WarplyEmulator(configuration: emulatorConfiguration)
        let clock = clock
        host = SandboxHost(emulators: [emulator], configuration: SandboxConfiguration(now: { clock.now }))
        let endpoints = try await host.start()
        baseURL = try #require(endpoints.baseURL(for: "warply"))
    }

    /// The testing preset pointed at the emulator.
    func warplyConfiguration(
        _ adjust: (inout WarplyConfiguration) -> Void = { _ in }
    ) -> WarplyConfiguration {
        var warply = WarplyConfiguration.preset(.testing, appUUID: Self.appUUID)
        warply.environment = .custom(baseURL)
        warply.requestTimeoutSeconds = 20  // generous: the suite runs hundreds of tests at once
        warply.logLevel = nil  // the registry's level: tests that capture logs set it there
        warply.analyticsEnabled = true
        warply.deviceID = "device-under-test"
        warply.partnerCredentials = .init(username: "cosmote", password: "s3cret")
        warply.signing = signing
        adjust(&warply)
        return warply
    }

    func configuration(_ warply: WarplyConfiguration, storage: StorageLocation = .inMemory) throws -> EngageConfiguration {
        var configuration = EngageConfiguration.preset(.testing, appID: "org.engagekit.warply-tests")
        configuration.network.timeoutSeconds = 20  // generous: the suite runs hundreds of tests at once
        configuration.storage = storage
        configuration.analytics.flushIntervalSeconds = 3600
        try configuration.setProvider(.warply, warply)
        return configuration
    }

    func start(
        _ warply: WarplyConfiguration? = nil, storage: StorageLocation = .inMemory, secretStore: any SecretStore = InMemorySecretStore(),
        logger: Logger = Logger(label: "warply-tests"), transport: (any HTTPTransport)? = nil
    ) async throws -> Engage {
        var environment = RegistryEnvironment(
            clock: clock, random: SeededRandomSource(seed: 9), secretStore: secretStore, logger: logger
        )
        if let transport { environment.transport = transport }
        return try await Engage.start(
            configuration: configuration(warply ?? warplyConfiguration(), storage: storage), environment: environment)
    }

    /// Starts Engage and returns it with its Warply provider.
    func startProvider(
        _ warply: WarplyConfiguration? = nil, storage: StorageLocation = .inMemory, secretStore: any SecretStore = InMemorySecretStore(),
        logger: Logger = Logger(label: "warply-tests"), transport: (any HTTPTransport)? = nil
    ) async throws -> (Engage, WarplyProvider) {
        let engage = try await start(warply, storage: storage, secretStore: secretStore, logger: logger, transport: transport)
        return (engage, try await engage.provider(WarplyProvider.self))
    }

    /// Starts Engage and logs `email` in.
    func loggedIn(
        email: String = "maria@example.gr", _ warply: WarplyConfiguration? = nil, transport: (any HTTPTransport)? = nil
    ) async throws -> (Engage, WarplyProvider) {
        let (engage, provider) = try await startProvider(warply, transport: transport)
        try await provider.logIn(deiEmail: email)
        return (engage, provider)
    }

    /// Requests the emulator received on `path` (relative to its prefix).
    func requests(to path: String) -> [JournalEntry] {
        host.journal.entries(for: "warply").filter { $0.path == path }
    }

    func stop() async { await host.stop() }
}

/// The emulator-relative paths of the families.
enum WarplyPaths {
    static let appUUID = WarplyHarness.appUUID
    static let register = WarplyWire.path(.register, appUUID: appUUID)
    static let standardContext = WarplyWire.path(.standardContext, appUUID: appUUID)
    static let authenticatedContext = WarplyWire.path(.authenticatedContext, appUUID: appUUID)
    static let token = WarplyWire.path(.token, appUUID: appUUID)
    static let analytics = WarplyWire.path(.analytics, appUUID: appUUID)
}

/// The context requests among `entries`, decoded.
func contextRequests(_ entries: [JournalEntry]) -> [WarplyContextRequest] {
    entries.compactMap { try? $0.decodeBody(WarplyContextRequest.self) }
}
