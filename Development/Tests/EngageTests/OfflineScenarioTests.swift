@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) import EngageReference
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import ReferenceEmulator
import EngageTestTraits
import Testing

/// What apps go through, end to end over loopback against the Reference emulator with the sandbox's
/// fault injection: a day offline across many launches, and a server asking to come back in an hour.
/// Time is a `FakeClock` shared by every "launch" (one `Engage` instance each, on one database folder),
/// so the scenarios are deterministic.
@Suite("Scenarios: nothing lost where apps live", .bounded(.heavy))
struct OfflineScenarioTests {
    struct App {
        let host: SandboxHost
        let emulator = ReferenceEmulator(configuration: .init(password: referencePassword))
        let reference: URL
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("engage-offline-\(UUID().uuidString)")
        let clock = FakeClock(now: Date())
        /// The keychain outlives each launch (a restore without the key replaces it).
        let keychain = Locked(InMemorySecretStore())
        var secretStore: InMemorySecretStore { keychain.value }

        init() async throws {
            host = SandboxHost(emulators: [emulator])
            reference = try #require(try await host.start().baseURL(for: "reference"))
        }

        func launch(_ adjust: (inout EngageConfiguration) -> Void = { _ in }) async throws -> Engage {
            var configuration = EngageConfiguration.preset(.testing, appID: "org.engagekit.offline")
            configuration.storage = .directory(directory.path)
            configuration.network.timeoutSeconds = 20
            configuration.analytics.flushIntervalSeconds = 3600  // flushes only when the scenario asks
            adjust(&configuration)
            try configuration.setProvider("reference", ReferenceProvider.Configuration(baseURL: reference))
            let engage = try await Engage.start(
                configuration: configuration, providers: [try ProviderRegistration.provider(ReferenceProvider.self, from: configuration)],
                environment: RegistryEnvironment(clock: clock, secretStore: secretStore, notificationCenter: NotificationCenter())
            )
            #expect(await engage.waitUntilReady().failures.isEmpty)
            return engage
        }

        /// The requests that reached (or were refused at) the events route.
        var eventRequests: [JournalEntry] { host.journal.entries(matching: "/events").filter { $0.method == "POST" } }

        func stop() async {
            await host.stop()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    @Test("offline for a simulated 24 h: 5 000 events over 20 launches are all delivered once, in order, in batches")
    func offlineForADay() async throws {
        let app = try await App()
        // The network is down: every connection to the events route drops before the server sees it.
        let outage = app.host.faults.inject(FaultRule(.dropConnection, emulatorID: "reference", method: "POST", path: "/events"))
        var names: [String] = []
        for launch in 0..<20 {
            let engage = try await app.launch()
            for index in 0..<250 {
                let name = String(format: "e-%02d-%03d", launch, index)
                names.append(name)
                _ = try await engage.track(TrackedEvent(.custom, name: name))
            }
            _ = await engage.flush()
            await engage.shutdown()
            app.clock.advance(by: .seconds(24 * 3600 / 20))
        }
        let attemptsOffline = app.eventRequests.count
        #expect(attemptsOffline >= 20)
        #expect(app.emulator.receivedEvents.isEmpty)

        // Online again: one more launch drains the queue.
        app.host.faults.remove(outage)
        let engage = try await app.launch()
        #expect(try await engage.registry.analytics.pendingCount() == 5_000)
        let drainStart = ContinuousClock.now
        var rounds = 0
        while try await engage.registry.analytics.pendingCount() > 0, rounds < 20 {
            _ = await engage.flush()
            rounds += 1
        }
        let drain = ContinuousClock.now - drainStart
        let received = app.emulator.receivedEvents.map(\.name)
        #expect(received.count == 5_000)
        #expect(received == names, "delivered out of order or not exactly once")
        let onlineRequests = app.eventRequests.count - attemptsOffline
        // Batches of 50: exactly 100 requests, every one accepted.
        #expect(onlineRequests == 100)
        #expect(app.eventRequests.suffix(onlineRequests).allSatisfy { $0.status == 200 })
        // Reported, not asserted: tests never time themselves.
        print(
            "offline scenario: 5000 events over 20 launches; \(attemptsOffline) attempts offline, \(onlineRequests) requests online, drained in \(drain)"
        )
        await engage.shutdown()
        await app.stop()
    }

    @Test("503 Retry-After: 3600: no request before the time, across a relaunch; then the events arrive")
    func retryAfterAcrossARelaunch() async throws {
        let app = try await App()
        let busy = app.host.faults.inject(
            FaultRule(.serviceUnavailable(retryAfter: 3600), emulatorID: "reference", method: "POST", path: "/events"))
        var engage = try await app.launch()
        _ = try await engage.track(TrackedEvent(.custom, name: "before-the-outage-ends"))
        _ = await engage.flush()
        let first = app.eventRequests.count
        #expect(first >= 1)
        for _ in 0..<3 {
            app.clock.advance(by: .seconds(600))
            _ = await engage.flush()
        }
        await engage.shutdown()
        #expect(app.eventRequests.count == first)

        // Relaunched 40 minutes later, and again within the hour: still nothing sent.
        app.clock.advance(by: .seconds(600))
        engage = try await app.launch()
        _ = await engage.flush()
        app.clock.advance(by: .seconds(900))
        _ = await engage.flush()
        #expect(app.eventRequests.count == first)

        app.host.faults.remove(busy)
        app.clock.advance(by: .seconds(301))
        _ = await engage.flush()
        #expect(app.emulator.receivedEvents.map(\.name) == ["before-the-outage-ends"])
        #expect(app.eventRequests.count == first + 1)
        await engage.shutdown()
        await app.stop()
    }

    /// Counts the events of a destination that always accepts.
    final class CountingDeliverer: QueueDelivering {
        let delivered = Locked(0)

        func deliver(_ batch: [QueuedEvent]) async throws {
            delivered.withLock { $0 += batch.count }
        }
    }

    /// A server that keeps each answer alive with a byte every 250 ms: the call ends at its deadline,
    /// and the analytics flush stuck behind it lets the other destinations deliver. The silence limit
    /// (4.5 s) sits just under the deadline (5 s), so only a stall of 4.5 s from the call's very start
    /// could end it first (a 2 s limit was reached once in CI, when busy cores delayed a write); the
    /// test never measures time.
    @Test("a server that trickles bytes: the call ends at its deadline; other destinations keep flowing", .bounded(deadline: .seconds(120)))
    func tricklingServer() async throws {
        let app = try await App()
        let engage = try await app.launch {
            $0.network.timeoutSeconds = 4.5
            $0.network.callDeadlineSeconds = 5
        }
        _ = try await engage.logIn(referenceUser)
        let provider = try await engage.provider(ReferenceProvider.self)
        app.host.faults.inject(FaultRule(.trickle(every: .milliseconds(250)), emulatorID: "reference", path: "/items"))
        let error = await #expect(throws: EngageError.self) { _ = try await provider.items() }
        #expect(error?.code == .timeout)
        #expect(error?.message.contains("deadline") == true, "not the deadline: \(String(describing: error))")

        app.host.faults.inject(FaultRule(.trickle(every: .milliseconds(250)), emulatorID: "reference", method: "POST", path: "/events"))
        let other = CountingDeliverer()
        try await engage.registry.analytics.register(destination: "other", deliverer: other)
        _ = try await engage.track(TrackedEvent(.custom, name: "held-by-a-trickle"))
        _ = try await engage.registry.analytics.enqueue(Data(#"{"n":1}"#.utf8), destination: "other")
        let report = await engage.registry.analytics.flush()
        #expect(other.delivered.value == 1)
        #expect(report.failures.values.contains { $0.code == .timeout })
        // Kept for the next flush (the server did store it: at least once, deduplicated by its id).
        #expect(try await engage.registry.analytics.pendingCount(destination: ReferenceProvider.analyticsDestination) == 1)
        await engage.shutdown()
        await app.stop()
    }

    /// The app restored from a backup that carried the database but not the key: the launch succeeds,
    /// the session reads as signed out (not an error on every launch), the queued events are still
    /// delivered, and signing in again works.
    @Test("restored without the key: signed out, the queue delivered, signing in works; nothing throws")
    func restoredWithoutTheKey() async throws {
        let app = try await App()
        let outage = app.host.faults.inject(FaultRule(.dropConnection, emulatorID: "reference", method: "POST", path: "/events"))
        var engage = try await app.launch()
        _ = try await engage.logIn(referenceUser)
        for index in 0..<30 { _ = try await engage.track(TrackedEvent(.custom, name: "before-restore-\(index)")) }
        _ = await engage.flush()
        let provider = try await engage.provider(ReferenceProvider.self)
        #expect(try await provider.tokens.currentTokens() != nil)
        await engage.shutdown()

        // The restore: the same files, a keychain without the old key.
        app.keychain.withLock { $0 = InMemorySecretStore() }
        app.host.faults.remove(outage)
        engage = try await app.launch()
        let restored = try await engage.provider(ReferenceProvider.self)
        #expect(try await restored.tokens.currentTokens() == nil)
        #expect(try await restored.tokens.currentTokens() == nil, "still no error on a second read")
        app.clock.advance(by: .seconds(3600))  // past the back-off the outage set
        _ = await engage.flush()
        #expect(app.emulator.receivedEvents.map(\.name) == (0..<30).map { "before-restore-\($0)" })
        _ = try await engage.logIn(referenceUser)
        #expect(try await restored.items().count > 0)
        await engage.shutdown()

        // The next launch keeps the new session (sealed with the new key).
        engage = try await app.launch()
        #expect(try await engage.provider(ReferenceProvider.self).tokens.currentTokens() != nil)
        await engage.shutdown()
        await app.stop()
    }
}
