@_spi(EngageProvider) @testable import EngageCore
import CroboxEmulator
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) @testable import EngageCrobox
@_spi(EngageProvider) import EngageReference
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import GRDB
import Logging
import ReferenceEmulator
import EngageTestTraits
import Testing

/// Analytics consent end to end: two providers that track (Reference and Crobox) against their
/// emulators over loopback, with the choice stored in a database on disk.
@Suite("Analytics consent, flush, purge and reset, end to end", .bounded)
struct AnalyticsConsentTests {
    struct Fixture {
        let host: SandboxHost
        let reference: URL
        let crobox: URL
        let directory: URL
        let referenceEmulator = ReferenceEmulator(configuration: .init(password: referencePassword))
        let croboxEmulator = CroboxEmulator()

        init() async throws {
            host = SandboxHost(emulators: [referenceEmulator, croboxEmulator])
            let endpoints = try await host.start()
            reference = try #require(endpoints.baseURL(for: "reference"))
            crobox = try #require(endpoints.baseURL(for: "crobox"))
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("engage-consent-\(UUID().uuidString)")
        }

        func start(secretStore: any SecretStore, notificationCenter: NotificationCenter = NotificationCenter()) async throws -> Engage {
            var configuration = EngageConfiguration.preset(.testing, appID: "org.engagekit.consent")
            configuration.storage = .directory(directory.path)
            configuration.network.timeoutSeconds = 20
            configuration.analytics.flushIntervalSeconds = 3600  // flushes only when the test asks
            try configuration.setProvider("reference", ReferenceProvider.Configuration(baseURL: reference))
            try configuration.setProvider(.crobox, CroboxConfiguration(containerID: "xlrc9t", baseURL: crobox))
            // A clock that does not move: the queue flushes only when the test asks, never on a timer
            // racing the assertions.
            let engage = try await Engage.start(
                configuration: configuration, providers: [try ProviderRegistration.provider(ReferenceProvider.self, from: configuration)],
                environment: RegistryEnvironment(
                    clock: FakeClock(now: Date()), secretStore: secretStore, notificationCenter: notificationCenter
                )
            )
            #expect(await engage.waitUntilReady().failures.isEmpty)
            return engage
        }

        /// The events each backend received and kept.
        var delivered: (reference: Int, crobox: Int) {
            (referenceEmulator.receivedEvents.count, croboxEmulator.receivedEvents.count)
        }

        /// Makes every delivery fail (503) until `allowDelivery()`, so that a flush the providers
        /// schedule on their own cannot deliver what a test keeps queued.
        func blockDelivery() {
            host.faults.inject(FaultRule(.status(503), trigger: .always))
        }

        func allowDelivery() {
            host.faults.removeAll()
        }

        func stop() async {
            await host.stop()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    static func event(_ name: String) -> TrackedEvent { TrackedEvent(.custom, name: name) }

    @Test("Opted out: nothing is stored or reaches any emulator, through the facade or a provider's own call")
    func optedOutSendsNothing() async throws {
        let fixture = try await Fixture()
        let engage = try await fixture.start(secretStore: InMemorySecretStore())
        try await engage.setAnalyticsEnabled(false)
        #expect(!engage.isAnalyticsEnabled())
        #expect(!engage.isAnalyticsEnabled(for: .crobox))
        for index in 0..<5 { _ = try await engage.track(Self.event("opted_out_\(index)")) }
        let crobox = try await engage.provider(CroboxProvider.self)
        try await crobox.send(.pageView(title: "Home"), on: CroboxPage(pageType: .index))
        #expect(try await engage.registry.analytics.pendingCount() == 0)
        await engage.flush()
        #expect(fixture.delivered.reference == 0 && fixture.delivered.crobox == 0)

        try await engage.setAnalyticsEnabled(true)
        _ = try await engage.track(Self.event("opted_in"))
        await engage.flush()
        #expect(fixture.delivered.reference == 1 && fixture.delivered.crobox == 1)
        await engage.shutdown()
        await fixture.stop()
    }

    @Test("Per provider: with Crobox off, only Reference stores and receives events; Crobox's switch outlives the global one")
    func perProvider() async throws {
        let fixture = try await Fixture()
        let engage = try await fixture.start(secretStore: InMemorySecretStore())
        try await engage.setAnalyticsEnabled(false, for: .crobox)
        #expect(engage.isAnalyticsEnabled() && !engage.isAnalyticsEnabled(for: .crobox) && engage.isAnalyticsEnabled(for: "reference"))
        _ = try await engage.track(Self.event("during"))
        #expect(try await engage.registry.analytics.pendingCount(destination: CroboxProvider.eventDestination) == 0)
        await engage.flush()
        #expect(fixture.delivered.crobox == 0)
        #expect(fixture.delivered.reference == 1)
        // Turning everything off and on again keeps Crobox's own switch.
        try await engage.setAnalyticsEnabled(false)
        try await engage.setAnalyticsEnabled(true)
        #expect(!engage.isAnalyticsEnabled(for: .crobox))
        try await engage.setAnalyticsEnabled(true, for: .crobox)
        _ = try await engage.track(Self.event("after"))
        await engage.flush()
        #expect(fixture.delivered.crobox == 1)
        #expect(fixture.delivered.reference == 2)
        await engage.shutdown()
        await fixture.stop()
    }

    @Test("Opting out with purgeQueued deletes what was queued; the choice survives a restart")
    func purgeAndPersistence() async throws {
        let fixture = try await Fixture()
        let secrets = InMemorySecretStore()
        let engage = try await fixture.start(secretStore: secrets)
        fixture.blockDelivery()
        for index in 0..<3 { _ = try await engage.track(Self.event("queued_\(index)")) }
        #expect(try await engage.registry.analytics.pendingCount() == 6)
        try await engage.setAnalyticsEnabled(false, for: .crobox, purgeQueued: true)
        #expect(try await engage.registry.analytics.pendingCount() == 3)
        try await engage.setAnalyticsEnabled(false, purgeQueued: true)
        #expect(try await engage.registry.analytics.pendingCount() == 0)
        await engage.shutdown()
        try engage.registry.database.close()

        fixture.allowDelivery()
        let restarted = try await fixture.start(secretStore: secrets)
        #expect(!restarted.isAnalyticsEnabled())
        #expect(!restarted.isAnalyticsEnabled(for: .crobox))
        _ = try await restarted.track(Self.event("after_restart"))
        await restarted.flush()
        #expect(fixture.delivered.reference == 0 && fixture.delivered.crobox == 0)
        await restarted.shutdown()
        await fixture.stop()
    }

    @Test(
        "reset: a new anonymous id, Reference logs out, Crobox gets a new persisted visitor id derived from it, the queue and the damaged copies are emptied, the consent stays"
    )
    func resetForgetsTheUser() async throws {
        let fixture = try await Fixture()
        let secrets = InMemorySecretStore()
        let engage = try await fixture.start(secretStore: secrets)
        #expect(try await engage.logIn(referenceUser).isComplete)
        try await engage.setAnalyticsEnabled(false, for: "reference")
        let before = try await engage.provider(CroboxProvider.self).visitorID
        let anonymousBefore = try engage.anonymousID
        fixture.blockDelivery()
        _ = try await engage.track(Self.event("queued"))
        #expect(try await engage.registry.analytics.pendingCount() == 1)

        // What the storage kept aside as unreadable holds the user's data too: a queue row copied into
        // engage_damaged_rows (its payload in plain text) and a damaged database file moved aside.
        try await engage.registry.database.writer.write { db in
            try db.execute(
                sql: "INSERT INTO engage_damaged_rows (source_table, moved_at, row_json) VALUES ('engage_queue', 0, ?)",
                arguments: [#"{"payload":"'email=ana@example.com'"}"#])
        }
        let databasePath = try #require(engage.registry.database.path)
        let movedAside = ["\(databasePath).damaged-1700000000", "\(databasePath).damaged-1700000000-wal"]
        for file in movedAside { try Data("user data".utf8).write(to: URL(fileURLWithPath: file)) }

        fixture.allowDelivery()
        let report = try await engage.reset()
        let damagedRows = try await engage.registry.database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM engage_damaged_rows") ?? -1
        }
        #expect(damagedRows == 0, "the damaged rows outlived the reset")
        #expect(movedAside.allSatisfy { !FileManager.default.fileExists(atPath: $0) }, "a moved-aside file outlived the reset")
        #expect(FileManager.default.fileExists(atPath: databasePath))
        #expect(report.isComplete)
        #expect(Set(report.succeeded) == [.crobox, "reference"])
        #expect(try await engage.registry.analytics.pendingCount() == 0)
        let after = try await engage.provider(CroboxProvider.self).visitorID
        #expect(after != before)
        let anonymousAfter = try engage.anonymousID
        #expect(anonymousAfter != anonymousBefore, "reset renews the app's anonymous id")
        #expect(after == (try engage.registry.anonymousID.derivedID(for: .crobox)), "Crobox's new visitor derives from the new id")
        #expect(after.uuidString.lowercased() != anonymousAfter, "Crobox never receives the app's own id")
        #expect(try await engage.offers().report.failures["reference"]?.code == .unauthorized, "the reference session is gone")
        #expect(!engage.isAnalyticsEnabled(for: "reference"), "the user's choice is not their data")
        await engage.shutdown()
        try engage.registry.database.close()

        let restarted = try await fixture.start(secretStore: secrets)
        #expect(try await restarted.provider(CroboxProvider.self).visitorID == after)
        #expect(try restarted.anonymousID == anonymousAfter)
        await restarted.shutdown()
        await fixture.stop()
    }

    @Test("The queue keeps a switched-off provider's events undelivered, and delivers them when it is switched back on")
    func keptWhileOff() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let consent = AnalyticsConsent(storage: database.coreStorage())
        let queue = DurableQueue(
            database: database, clock: FakeClock(now: Date()), random: SeededRandomSource(seed: 1), logger: Logger(label: "consent"),
            consent: consent)
        let delivered = Locked<[String]>([])
        try await queue.register(destination: "acme.events", deliverer: RecordingDeliverer(delivered: delivered))
        try await queue.register(destination: "zeta.events", deliverer: RecordingDeliverer(delivered: delivered))
        try await queue.enqueue(Data("a1".utf8), destination: "acme.events")
        try await queue.enqueue(Data("z1".utf8), destination: "zeta.events")
        try consent.setEnabled(false, for: "acme")
        try await queue.enqueue(Data("a2".utf8), destination: "acme.events")  // discarded
        let first = await queue.flush()
        #expect(delivered.value == ["z1"])
        #expect(first.remaining == 1)
        try consent.setEnabled(true, for: "acme")
        await queue.flush()
        #expect(delivered.value == ["z1", "a1"])
        #expect(try await queue.pendingCount() == 0)
    }

    struct RecordingDeliverer: QueueDelivering {
        let delivered: Locked<[String]>

        func deliver(_ batch: [QueuedEvent]) async throws {
            delivered.withLock { $0 += batch.map { String(decoding: $0.payload, as: UTF8.self) } }
        }
    }

    @Test("Moving to the background (UIKit's notification) delivers every provider's queue; after shutdown it does nothing")
    func backgroundFlush() async throws {
        let fixture = try await Fixture()
        let center = NotificationCenter()
        let engage = try await fixture.start(secretStore: InMemorySecretStore(), notificationCenter: center)
        _ = try await engage.track(Self.event("before_background"))
        // The clock does not move, so nothing but a flush can deliver these.
        #expect(try await engage.registry.analytics.pendingCount() == 2)
        // The value of UIApplication.didEnterBackgroundNotification.
        center.post(name: Notification.Name("UIApplicationDidEnterBackgroundNotification"), object: nil)
        // Generous: the delivery runs in the background, and the suite runs beside hundreds of tests.
        // (This test found that a flush joined one already running, which could have passed a
        // destination before its events were stored: see DurableQueue.flush.)
        #expect(
            await waitUntil {
                let pending = try? await engage.registry.analytics.pendingCount()
                return fixture.delivered.reference == 1 && fixture.delivered.crobox == 1 && pending == 0
            })
        await engage.shutdown()
        center.post(name: Notification.Name("UIApplicationDidEnterBackgroundNotification"), object: nil)
        await fixture.stop()
    }

    @Test("flushesOnBackground is on by default and can be switched off in JSON")
    func backgroundFlushSetting() throws {
        #expect(EngageConfiguration.preset(.production, appID: "org.engagekit.consent").analytics.flushesOnBackground)
        let json = #"{"appID": "org.engagekit.consent", "analytics": {"flushesOnBackground": false}}"#
        #expect(try !EngageConfiguration.load(json: Data(json.utf8)).analytics.flushesOnBackground)
    }

    @Test("A stored choice that cannot be read keeps analytics off")
    func unreadableChoiceFailsClosed() throws {
        let database = try EngageDatabase(location: .inMemory)
        let storage = database.coreStorage()
        try storage.setValue("not a consent", forKey: "analytics_consent")
        #expect(!AnalyticsConsent(storage: storage).isEnabled())
        #expect(AnalyticsConsent(storage: nil).isEnabled(for: .crobox))
    }

    @Test("Destinations belong to the provider named before their first dot")
    func destinationOwners() {
        #expect(AnalyticsConsent.owner(ofDestination: "crobox.events") == .crobox)
        #expect(AnalyticsConsent.owner(ofDestination: "warply.analytics.v2") == "warply")
        #expect(AnalyticsConsent.owner(ofDestination: "acme") == "acme")
    }
}
