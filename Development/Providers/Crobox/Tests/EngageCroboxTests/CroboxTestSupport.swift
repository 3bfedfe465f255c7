@_spi(EngageProvider) @testable import EngageCore
import CroboxEmulator
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) @testable import EngageCrobox
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import Logging
import Testing

/// A sandbox serving the Crobox emulator on 127.0.0.1 and an Engage instance with the Crobox provider
/// pointed at it. Time is a `FakeClock` starting at the real now, so `ts` is "now" and back-off is
/// driven by the test.
struct CroboxHarness {
    let clock = FakeClock(now: Date())
    let emulator: CroboxEmulator
    let host: SandboxHost
    let baseURL: URL

    init(emulatorConfiguration: CroboxEmulator.Configuration = .init()) async throws {
        emulator = CroboxEmulator(configuration: emulatorConfiguration)
        host = SandboxHost(emulators: [emulator])
        let endpoints = try await host.start()
        baseURL = try #require(endpoints.baseURL(for: "crobox"))
    }

    func configuration(_ crobox: CroboxConfiguration? = nil, storage: StorageLocation = .inMemory) throws -> EngageConfiguration {
        var configuration = EngageConfiguration.preset(.testing, appID: "org.engagekit.crobox-tests")
        configuration.network.timeoutSeconds = 20  // generous: the suite runs hundreds of tests at once
        configuration.storage = storage
        configuration.analytics.flushIntervalSeconds = 3600
        try configuration.setProvider(.crobox, crobox ?? croboxConfiguration())
        return configuration
    }

    func croboxConfiguration(containerID: String = "xlrc9t") -> CroboxConfiguration {
        CroboxConfiguration(
            containerID: containerID, baseURL: baseURL, locale: "en_US", currency: "EUR", userID: "user-42",
            timezoneOffsetHours: 2, customProperties: ["channel": "app"]
        )
    }

    func start(
        _ crobox: CroboxConfiguration? = nil, storage: StorageLocation = .inMemory, secretStore: any SecretStore = InMemorySecretStore(),
        logger: Logger = Logger(label: "crobox-tests"), transport: (any HTTPTransport)? = nil
    ) async throws -> Engage {
        var environment = RegistryEnvironment(
            clock: clock, random: SeededRandomSource(seed: 3), secretStore: secretStore, logger: logger
        )
        if let transport { environment.transport = transport }
        let engage = try await Engage.start(configuration: configuration(crobox, storage: storage), environment: environment)
        // The provider schedules a flush at start: let it end (a down backend holds it for its timeout),
        // so that a test's `flush` reports what it delivers.
        let queue = engage.registry.analytics
        let idle = await waitUntil {
            let scheduled = await queue.hasScheduledFlush
            let flushing = await queue.isFlushing
            return !scheduled && !flushing
        }
        #expect(idle)
        return engage
    }

    /// Delivers what is due now. A flush call may join one the provider scheduled earlier (which may
    /// have started before the last event was stored), so flush until nothing is pending or two rounds
    /// in a row make no progress.
    @discardableResult
    func flush(_ engage: Engage) async -> QueueFlushReport {
        var total = QueueFlushReport()
        var idleRounds = 0
        for _ in 0..<10 {
            let report = await engage.registry.analytics.flush()
            total.delivered += report.delivered
            total.retried += report.retried
            total.dropped += report.dropped
            total.failures.merge(report.failures) { _, new in new }
            let pending = (try? await engage.registry.analytics.pendingCount()) ?? 0
            idleRounds = report.delivered == 0 && report.retried == 0 && report.dropped == 0 ? idleRounds + 1 : 0
            if pending == 0 || idleRounds == 2 { break }
        }
        total.remaining = (try? await engage.registry.analytics.pendingCount()) ?? 0
        return total
    }

    func stop() async { await host.stop() }
}

extension CroboxReceivedEvent {
    /// The query items as (name, value) pairs, in the order received.
    var pairs: [(String, String)] { queryItems.map { ($0.name, $0.value) } }

    /// The first value of `name`.
    func value(_ name: String) -> String? { queryItems.first { $0.name == name }?.value }
}
