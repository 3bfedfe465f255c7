import Engage
import EngageTesting
import Foundation
import Testing

@Suite("ProviderRegistry")
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
        let registry = try ProviderRegistry(configuration: testConfiguration(), environment: testEnvironment())
        try await registry.register(.provider(AlphaProvider.self, configuration: ScriptedConfiguration(failStart: true)))
        try await registry.register(.provider(BetaProvider.self, configuration: ScriptedConfiguration(startDelayMilliseconds: 200)))
        try await registry.register(.provider(GammaProvider.self, configuration: ScriptedConfiguration(failInit: true, startDelayMilliseconds: 0)))
        let clock = ContinuousClock()
        let started = clock.now
        let report = await registry.start()
        #expect(clock.now - started < .seconds(5))
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
        await #expect(throws: EngageError.self) { try await registry.provider(BetaProvider.self) }
    }

    @Test("registering after start is an error, not a crash")
    func registerAfterStart() async throws {
        let registry = try ProviderRegistry(configuration: testConfiguration(), environment: testEnvironment())
        await registry.start()
        await #expect(throws: EngageError.self) {
            try await registry.register(.provider(AlphaProvider.self, configuration: ScriptedConfiguration()))
        }
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

    @Test("the shared registry is bootstrapped once; reading it before is an error")
    func sharedRegistry() throws {
        // Only this test touches ProviderRegistry.shared.
        #expect(throws: EngageError.self) { try ProviderRegistry.shared }
        let registry = try ProviderRegistry(configuration: testConfiguration(), environment: testEnvironment())
        try ProviderRegistry.bootstrapShared(registry)
        #expect(try ProviderRegistry.shared === registry)
        #expect {
            try ProviderRegistry.bootstrapShared(registry)
        } throws: { ($0 as? EngageError)?.code == .alreadyBootstrapped }
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
        #expect(dishonest.failures.map(\.name).contains("capability 'content' declared iff adopted"))
        #expect(dishonest.failures.map(\.name).contains("descriptor.version is semantic"))
        #expect(throws: EngageError.self) { try dishonest.requirePassed() }
    }
}

@Suite("ProviderRegistry reserved ids")
struct ReservedIDTests {
    final class Impostor: EngageProvider {
        typealias Configuration = EmptyConfiguration
        static let descriptor = ProviderDescriptor(id: "engage", displayName: "Impostor", version: "1.0.0", capabilities: [])
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
