@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import GRDB
import EngageTestTraits
import Testing

@Suite("ProviderRegistry", .bounded)
struct RegistryTests {
    @Test("duplicate ids are rejected with a clear error")
    func duplicateIDs() async throws {
        let registry = try ProviderRegistry(configuration: testConfiguration(), environment: testEnvironment())
        try await registry.register(.provider(AlphaProvider.self, configuration: ScriptedConfiguration()))
        await #expect {
            try await registry.register(.provider(AlphaProvider.self, configuration: ScriptedConfiguration()))
        } throws: { ($0 as? EngageError)?.code == .duplicateProvider && ($0 as? EngageError)?.providerID == "alpha" }
    }

    @Test("invalid configuration is rejected at registration, naming the provider and the setting")
    func invalidConfiguration() async throws {
        let registry = try ProviderRegistry(configuration: testConfiguration(), environment: testEnvironment())
        await #expect {
            try await registry.register(.provider(AlphaProvider.self, configuration: ScriptedConfiguration(startDelayMilliseconds: -1)))
        } throws: { error in
            guard let error = error as? EngageError else { return false }
            return error.code == .invalidConfiguration && error.providerID == "alpha" && error.message.contains("startDelayMilliseconds")
        }
    }

    @Test("a missing configuration section is reported as notConfigured")
    func missingSection() {
        #expect {
            try ProviderRegistration.provider(AlphaProvider.self, from: testConfiguration())
        } throws: { ($0 as? EngageError)?.code == .notConfigured }
    }

    @Test("providers start concurrently and one failure does not stop the others")
    func partialStart() async throws {
        // Alpha and beta each wait in start() until both are there: a serial start never completes the
        // barrier, and the watchdog then breaks it, so the test fails instead of hanging.
        let probe = ScriptProbe.uniqueName("partial-start")
        let registry = try ProviderRegistry(configuration: testConfiguration(), environment: testEnvironment())
        try await registry.register(
            .provider(
                AlphaProvider.self, configuration: ScriptedConfiguration(failStart: true, probe: probe, barrierParties: 2)
            ))
        try await registry.register(.provider(BetaProvider.self, configuration: ScriptedConfiguration(probe: probe, barrierParties: 2)))
        try await registry.register(.provider(GammaProvider.self, configuration: ScriptedConfiguration(failInit: true)))
        let starting = Task { await registry.start() }
        let concurrent = await ScriptProbe.named(probe).barrier(parties: 2).waitForCompletion()
        #expect(concurrent, "alpha and beta must be inside start() at the same time")
        let report = await starting.value
        #expect(report.started == ["beta"])
        #expect(report.failures["alpha"]?.message == "scripted start failure")
        #expect(report.failures["gamma"]?.code == .invalidConfiguration)
        #expect(!report.isComplete)
        _ = try await registry.provider(BetaProvider.self)
        await #expect {
            try await registry.provider(AlphaProvider.self)
        } throws: { error in
            let error = error as? EngageError
            return error?.code == .providerStartFailed && error?.message.contains("scripted start failure") == true
        }
        await registry.shutdown()
        let error = await #expect(throws: EngageError.self) { try await registry.provider(BetaProvider.self) }
        #expect(error?.code == .providerNotFound)
    }

    @Test("a provider registered on a running registry starts at once; a failing one is reported and can be registered again")
    func registerAfterStart() async throws {
        let registry = try ProviderRegistry(configuration: testConfiguration(), environment: testEnvironment())
        try await registry.register(.provider(BetaProvider.self, configuration: ScriptedConfiguration(offers: ["b"])))
        await registry.start()
        try await registry.register(.provider(AlphaProvider.self, configuration: ScriptedConfiguration(offers: ["a"])))
        #expect(try await registry.provider(AlphaProvider.self).offers(OfferQuery()).map(\.id) == ["a"])
        #expect(await registry.providers.map { type(of: $0).descriptor.id } == ["beta", "alpha"])
        #expect(await registry.startReport.started == ["beta", "alpha"])
        let duplicate = await #expect(throws: EngageError.self) {
            try await registry.register(.provider(AlphaProvider.self, configuration: ScriptedConfiguration()))
        }
        #expect(duplicate?.code == .duplicateProvider)

        try await registry.remove("alpha")
        let failing = await #expect(throws: EngageError.self) {
            try await registry.register(.provider(AlphaProvider.self, configuration: ScriptedConfiguration(failStart: true)))
        }
        #expect(failing?.code == .providerStartFailed)
        #expect(await registry.startReport.failures["alpha"] != nil)
        try await registry.register(.provider(AlphaProvider.self, configuration: ScriptedConfiguration(offers: ["again"])))
        #expect(try await registry.provider(AlphaProvider.self).offers(OfferQuery()).map(\.id) == ["again"])
        await registry.shutdown()
        let late = await #expect(throws: EngageError.self) {
            try await registry.register(.provider(GammaProvider.self, configuration: ScriptedConfiguration()))
        }
        #expect(late?.code == .providerNotFound)
    }

    @Test("remove delivers the provider's queued analytics, shuts it down, and forgets it")
    func removeFlushesAndShutsDown() async throws {
        let name = ScriptProbe.uniqueName("remove")
        let probe = ScriptProbe.named(name)
        let registry = try ProviderRegistry(configuration: testConfiguration(), environment: testEnvironment())
        try await registry.register(
            .provider(AlphaProvider.self, configuration: ScriptedConfiguration(probe: name, registersDeliverer: true)))
        try await registry.register(.provider(BetaProvider.self, configuration: ScriptedConfiguration()))
        await registry.start()
        try await registry.analytics.enqueue(Data("{}".utf8), destination: "alpha.events")
        try await registry.analytics.enqueue(Data("{}".utf8), destination: "alpha.events")
        let flush = try await registry.remove("alpha")
        #expect(flush.delivered == 2)
        #expect(probe.deliveries.value.count == 2)
        #expect(probe.shutdowns.count == 1)
        #expect(await registry.providers.map { type(of: $0).descriptor.id } == ["beta"])
        let gone = await #expect(throws: EngageError.self) { try await registry.provider(AlphaProvider.self) }
        #expect(gone?.code == .notConfigured)
        let unknown = await #expect(throws: EngageError.self) { try await registry.remove("alpha") }
        #expect(unknown?.code == .notConfigured)
        await registry.shutdown()
    }

    @Test("an invalid registry configuration lists every problem")
    func invalidRegistryConfiguration() {
        var configuration = testConfiguration()
        configuration.network.timeoutSeconds = 0
        configuration.appID = ""
        #expect {
            try ProviderRegistry(configuration: configuration, environment: testEnvironment())
        } throws: { error in
            let message = (error as? EngageError)?.message ?? ""
            return message.contains("appID") && message.contains("timeoutSeconds")
        }
    }

    @Test("each provider gets its own storage namespace with its migrations applied")
    func namespaces() async throws {
        let registry = try ProviderRegistry(configuration: testConfiguration(), environment: testEnvironment())
        try await registry.register(.provider(AlphaProvider.self, configuration: ScriptedConfiguration()))
        try await registry.register(.provider(BetaProvider.self, configuration: ScriptedConfiguration()))
        await registry.start()
        let alpha = try await registry.provider(AlphaProvider.self)
        let beta = try await registry.provider(BetaProvider.self)
        try alpha.behavior.context.storage.setValue("a", forKey: "k")
        try beta.behavior.context.storage.setValue("b", forKey: "k")
        #expect(try alpha.behavior.context.storage.value(String.self, forKey: "k") == "a")
        #expect(try beta.behavior.context.storage.value(String.self, forKey: "k") == "b")
        try alpha.behavior.context.storage.removeAll()
        #expect(try beta.behavior.context.storage.value(String.self, forKey: "k") == "b")
        await registry.shutdown()
    }

    @Test("the conformance suite passes honest providers and catches a dishonest one")
    func conformance() async throws {
        let report = await ProviderConformanceSuite(
            AlphaProvider.self, configuration: ScriptedConfiguration(offers: ["x"]),
            invalidConfiguration: ScriptedConfiguration(startDelayMilliseconds: -5),
            operationProbe: { provider in _ = try await provider.offers(OfferQuery()) }
        ).run()
        #expect(report.failures.isEmpty, "\(report)")

        let dishonest = await ProviderConformanceSuite(DishonestProvider.self, configuration: EmptyConfiguration()).run()
        #expect(dishonest.failures.map(\.name).contains("descriptor.version is semantic"))
        #expect(throws: EngageError.self) { try dishonest.requirePassed() }
        // Without a probe and secrets, no secret check is claimed.
        #expect(!dishonest.checks.map(\.name).contains("no secret appears in logs"))
        #expect(!report.checks.map(\.name).contains("no secret appears in logs"))

        let withSecrets = await ProviderConformanceSuite(
            AlphaProvider.self, configuration: ScriptedConfiguration(offers: ["x"]), secrets: ["alpha-secret"],
            operationProbe: { provider in _ = try await provider.offers(OfferQuery()) }
        ).run()
        #expect(withSecrets.checks.map(\.name).contains("no secret appears in logs"))
        #expect(withSecrets.failures.isEmpty, "\(withSecrets)")
    }

    @Test("the conformance suite checks that migrations stay inside the provider's namespace")
    func conformanceMigrations() async throws {
        let honest = await ProviderConformanceSuite(TidyProvider.self, configuration: EmptyConfiguration()).run()
        #expect(honest.failures.isEmpty, "\(honest)")
        #expect(honest.checks.contains { $0.name == "migrations apply once and are idempotent" && $0.passed })

        let leaky = await ProviderConformanceSuite(LeakyProvider.self, configuration: EmptyConfiguration()).run()
        let failure = try #require(leaky.failures.first { $0.name == "tables live in the provider's namespace" })
        #expect(failure.detail.contains("table offers"))
        #expect(failure.detail.contains("index leaky_idx") == false)
        #expect(failure.detail.contains("index offers_by_title"))
        #expect(failure.detail.contains("view recent"))
    }
}

/// Creates a table, an index, a view and a trigger, all named `tidy_…`.
final class TidyProvider: EngageProvider {
    typealias Configuration = EmptyConfiguration
    static let descriptor = ProviderDescriptor(id: "tidy", displayName: "Tidy", version: "1.0.0")
    static let migrations = [
        StorageMigration("schema") { db in
            try db.execute(
                sql: """
                    CREATE TABLE tidy_items (id TEXT PRIMARY KEY, title TEXT NOT NULL);
                    CREATE INDEX tidy_items_by_title ON tidy_items(title);
                    CREATE VIEW tidy_recent AS SELECT id FROM tidy_items;
                    CREATE TRIGGER tidy_items_guard BEFORE DELETE ON tidy_items BEGIN SELECT 1; END;
                    """)
        },
        StorageMigration("more") { db in
            try db.execute(sql: "ALTER TABLE tidy_items ADD COLUMN note TEXT")
        },
    ]
    init(configuration: EmptyConfiguration, context: ProviderContext) async throws {}
}

/// Creates objects outside its namespace.
final class LeakyProvider: EngageProvider {
    typealias Configuration = EmptyConfiguration
    static let descriptor = ProviderDescriptor(id: "leaky", displayName: "Leaky", version: "1.0.0")
    static let migrations = [
        StorageMigration("schema") { db in
            try db.execute(
                sql: """
                    CREATE TABLE offers (id TEXT PRIMARY KEY, title TEXT);
                    CREATE INDEX offers_by_title ON offers(title);
                    CREATE TABLE leaky_items (id INTEGER PRIMARY KEY);
                    CREATE INDEX leaky_idx ON leaky_items(id);
                    CREATE VIEW recent AS SELECT id FROM leaky_items;
                    """)
        }
    ]
    init(configuration: EmptyConfiguration, context: ProviderContext) async throws {}
}

@Suite("ProviderRegistry reserved ids", .bounded)
struct ReservedIDTests {
    final class Impostor: EngageProvider {
        typealias Configuration = EmptyConfiguration
        static let descriptor = ProviderDescriptor(id: "engage", displayName: "Impostor", version: "1.0.0")
        init(configuration: EmptyConfiguration, context: ProviderContext) async throws {}
    }

    @Test("the core's storage namespace cannot be taken by a provider")
    func reservedID() async throws {
        let registry = try ProviderRegistry(configuration: testConfiguration(), environment: testEnvironment())
        await #expect {
            try await registry.register(.provider(Impostor.self, configuration: EmptyConfiguration()))
        } throws: { ($0 as? EngageError)?.code == .invalidConfiguration }
    }
}
