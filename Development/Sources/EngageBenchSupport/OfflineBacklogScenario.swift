@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageTesting
@_spi(EngageProvider) import EngageReference
@_spi(EngageProvider) import EngageSandbox
import Foundation
import Logging
import ReferenceEmulator

/// Benchmark 6: the offline backlog. A registry with the reference provider tracks `events` events
/// while every connection to the events route drops (a flush attempt after each `events / attempts`
/// of them fails), the shared clock moves a day on, the network comes back, and the queue is flushed
/// until it is empty: how long that drain takes, how many requests it needed, and whether every event
/// arrived once, in order.
///
/// The end-to-end test of the same day (`OfflineScenarioTests`, twenty launches on a fake clock)
/// proves that nothing is lost; this measures the drain on a real clock and a real database file.
public final class OfflineBacklogScenario: Sendable {
    /// What one run came to.
    public struct Outcome: Sendable {
        /// Events tracked while offline.
        public var tracked: Int
        /// Events the emulator received, in order and once each.
        public var deliveredInOrder: Bool
        /// Requests to the events route while offline (all dropped).
        public var offlineAttempts: Int
        /// Requests to the events route once back online.
        public var drainRequests: Int
        /// The flushes the drain took.
        public var drainFlushes: Int
        /// From the first flush online to an empty queue.
        public var drainTime: Duration
    }

    private let sandbox: BenchSandbox
    private let directory: TemporaryDirectory
    private let registry: ProviderRegistry
    private let provider: ReferenceProvider

    private init(sandbox: BenchSandbox, directory: TemporaryDirectory, registry: ProviderRegistry, provider: ReferenceProvider) {
        self.sandbox = sandbox
        self.directory = directory
        self.registry = registry
        self.provider = provider
    }

    /// A started registry on a new database file, its reference provider talking to the sandbox.
    public static func start() async throws -> OfflineBacklogScenario {
        let sandbox = try await BenchSandbox.start()
        do {
            let directory = try TemporaryDirectory(label: "backlog")
            var configuration = EngageConfiguration.preset(.testing, appID: "org.engagekit.bench.backlog")
            configuration.storage = .directory(directory.path + "/engage")
            configuration.analytics.flushIntervalSeconds = 3600  // flushes only when the scenario asks
            try configuration.setProvider("reference", ReferenceProvider.Configuration(baseURL: sandbox.baseURL))
            let environment = RegistryEnvironment(
                transport: URLSessionTransport(session: sandbox.session), clock: sandbox.clock, secretStore: InMemorySecretStore(),
                logger: Logger(label: "engage.bench.backlog", factory: { _ in SwiftLogNoOpLogHandler() })
            )
            let registry = try ProviderRegistry(configuration: configuration, environment: environment)
            try await registry.register(ProviderRegistration.provider(ReferenceProvider.self, from: configuration))
            let report = await registry.start()
            guard report.failures.isEmpty else { throw BenchFailure("the reference provider did not start: \(report.failures)") }
            return OfflineBacklogScenario(
                sandbox: sandbox, directory: directory, registry: registry, provider: try await registry.provider(ReferenceProvider.self))
        } catch {
            await sandbox.stop()
            throw error
        }
    }

    /// Tracks `events` events offline over `attempts` failed flushes and a day, then drains them.
    public func run(events: Int = 5_000, attempts: Int = 20) async throws -> Outcome {
        let outage = sandbox.host.faults.inject(FaultRule(.dropConnection, emulatorID: "reference", method: "POST", path: "/events"))
        let perAttempt = max(events / max(attempts, 1), 1)
        var names: [String] = []
        names.reserveCapacity(events)
        for index in 0..<events {
            let name = "backlog-\(index)"
            names.append(name)
            try await provider.track(TrackedEvent(.custom, name: name))
            if (index + 1).isMultiple(of: perAttempt) {
                _ = await registry.analytics.flush()
                sandbox.clock.advance(by: .seconds(24 * 3600 / max(attempts, 1)))
            }
        }
        let offlineAttempts = eventRequests()
        sandbox.host.faults.remove(outage)

        let started = ContinuousClock.now
        var flushes = 0
        while try await registry.analytics.pendingCount() > 0, flushes < 1_000 {
            _ = await registry.analytics.flush()
            flushes += 1
        }
        let drainTime = ContinuousClock.now - started
        let received = sandbox.emulator.receivedEvents.map(\.name)
        return Outcome(
            tracked: events, deliveredInOrder: received == names, offlineAttempts: offlineAttempts,
            drainRequests: eventRequests() - offlineAttempts, drainFlushes: flushes, drainTime: drainTime
        )
    }

    /// Shuts the registry down and stops the sandbox; the database folder goes with the scenario.
    public func stop() async {
        await registry.shutdown()
        try? registry.database.close()
        await sandbox.stop()
    }

    private func eventRequests() -> Int {
        sandbox.host.journal.entries(matching: "/events").filter { $0.method == "POST" }.count
    }
}
