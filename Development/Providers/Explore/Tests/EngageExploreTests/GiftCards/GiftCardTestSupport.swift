@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageExploreCTX
@_spi(EngageProvider) @testable import EngageExploreGiftCards
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import Logging
import EngageTestTraits
import Testing

/// Every gift-card suite, run one test at a time: the end-to-end tests each start a sandbox and a
/// URLSession, and on a loaded 2-core machine many of them at once starved one another.
@Suite("Explore gift cards", .serialized, .bounded)
struct GiftCardSuites {}

/// A `ProviderContext` for the Explore provider as the registry would build it, in memory: its own
/// database, sealer, fake clock and a log capture at trace level (so every request and answer body is
/// logged and redaction is exercised).
struct GiftCardTestContext {
    let clock: FakeClock
    let logs = LogCapture()
    let context: ProviderContext

    /// A context over `database` (a new in-memory one by default) with a new secret store: a second
    /// context over the same database is the app after a restore that brought the database back
    /// without its key.
    init(
        clock: FakeClock, timeoutSeconds: Double = 30, database: EngageDatabase? = nil,
        transport: any HTTPTransport = URLSessionTransport()
    ) throws {
        self.clock = clock
        let database = try database ?? EngageDatabase(location: .inMemory, clock: clock)
        let secretStore = InMemorySecretStore()
        let sealer = try Sealer(store: secretStore, keyName: "explore")
        let storage = try database.namespace(ProviderID.explore.rawValue, sealer: sealer)
        var configuration = EngageConfiguration.preset(.testing, appID: "org.engagekit.explore-gift-card-tests")
        configuration.network.timeoutSeconds = timeoutSeconds  // generous: loaded 2-core machines
        let logger = logs.logger(label: "explore-gift-cards", level: .trace)
        let random = SeededRandomSource(seed: 5)
        context = ProviderContext(
            descriptor: ProviderDescriptor(id: .explore, displayName: "Explore", version: "1.0.0"),
            configuration: configuration, logger: logger, clock: clock, random: random, transport: transport,
            storage: storage, database: database, secretStore: secretStore, sealer: sealer,
            events: EventBus(),
            analytics: DurableQueue(database: database, clock: clock, random: random, logger: logger)
        )
    }
}

/// Waits (on real time, bounded) until `condition` holds: for handing control between a polling task
/// and the test that moves the fake clock.
func eventuallyTrue(_ what: String, _ condition: () async -> Bool) async throws {
    for _ in 0..<3_000 {
        if await condition() { return }
        try await Task.sleep(for: .milliseconds(10))
    }
    Issue.record("Timed out waiting for: \(what)")
}

/// Every printed form of a value: `description`, `debugDescription`, inside a collection, `dump`, and
/// its `Mirror`'s children (what reflection-based loggers read).
func printedForms(_ value: some Any) -> [String] {
    var dumped = ""
    dump(value, to: &dumped)
    let mirrored = Mirror(reflecting: value).children.map { "\($0.label ?? "_"): \(String(reflecting: $0.value))" }
    return [String(describing: value), String(reflecting: value), "\([value])", dumped] + mirrored
}

/// The `EngageError` a call threw, if it threw one.
func engageError(_ body: () async throws -> Void) async -> EngageError? {
    do {
        try await body()
        return nil
    } catch {
        return error as? EngageError
    }
}

/// A gate the sandbox's injected `sleep` passes through: a `.delay` fault then holds a request at
/// the server until the test opens the gate, so the test knows the request is in flight.
actor TestGate {
    private var arrived = 0
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Counts the arrival and waits until the gate is open.
    func pass() async {
        arrived += 1
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Lets every waiting and later arrival through.
    func open() {
        isOpen = true
        waiters.forEach { $0.resume() }
        waiters = []
    }

    /// How many requests arrived at the gate.
    var arrivals: Int { arrived }
}

/// Recorded official answers (`Development/Providers/Explore/Tests/Fixtures/<provider>`); compare them by shape with
/// the test kit's `JSONShape`.
enum RecordedJSON {
    /// The folder of `provider`'s recorded answers.
    static func folder(_ provider: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/\(provider)")
    }

    /// The bytes of one recorded file.
    static func data(_ provider: String, _ name: String) throws -> Data {
        try Data(contentsOf: folder(provider).appendingPathComponent(name))
    }

    /// One recorded file parsed as plain JSON.
    static func value(_ provider: String, _ name: String) throws -> Any {
        try JSONSerialization.jsonObject(with: data(provider, name), options: [.fragmentsAllowed])
    }
}
