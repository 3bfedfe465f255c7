@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import AcmeEmulator
@_spi(EngageProvider) import AcmeOffers
@_spi(EngageProvider) import Engage
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) import EngageTesting
import Foundation
import Testing

/// The Acme emulator on 127.0.0.1 and an Engage instance with the Acme provider pointed at it.
struct AcmeHarness {
    let emulator = AcmeEmulator(apiKey: "acme-test-key-42")
    let host: SandboxHost
    let baseURL: URL

    init() async throws {
        host = SandboxHost(emulators: [emulator])
        baseURL = try #require(try await host.start().baseURL(for: "acme"))
    }

    func configuration(apiKey: String = "acme-test-key-42") -> AcmeConfiguration {
        AcmeConfiguration(baseURL: baseURL, apiKey: apiKey)
    }

    func start(apiKey: String = "acme-test-key-42", extra: [ProviderRegistration] = []) async throws -> Engage {
        var configuration = EngageConfiguration.preset(.testing, appID: "com.example.acme-tests")
        configuration.storage = .inMemory
        return try await Engage.start(
            configuration: configuration,
            providers: [.provider(AcmeProvider.self, configuration: self.configuration(apiKey: apiKey))] + extra,
            environment: RegistryEnvironment(secretStore: InMemorySecretStore())
        )
    }

    func stop() async { await host.stop() }
}

/// A second deals provider that always fails, to show the fan-out's partial-failure report.
final class BrokenDeals: EngageProvider, DealsProviding {
    struct Configuration: ProviderConfiguration {}
    static let descriptor = ProviderDescriptor(id: "broken-deals", displayName: "Broken deals", version: "0.1.0")
    init(configuration: Configuration, context: ProviderContext) async throws {}
    func deals(limit: Int) async throws -> [AcmeDeal] {
        throw EngageError(.httpStatus, "down for maintenance", httpStatus: 503, isRetryable: true)
    }
}

@Suite("Acme provider")
struct AcmeOffersTests {
    @Test("the provider passes EngageKit's conformance suite against its emulator; the API key never reaches the logs")
    func conformance() async throws {
        let harness = try await AcmeHarness()
        let report = await ProviderConformanceSuite(
            AcmeProvider.self,
            configuration: harness.configuration(),
            invalidConfiguration: AcmeConfiguration(baseURL: harness.baseURL, apiKey: "has spaces", pageSize: 0),
            secrets: ["acme-test-key-42"],
            operationProbe: { provider in _ = try await provider.deals(limit: 2) }
        ).run()
        #expect(report.failures.isEmpty, "\(report)")
        await harness.stop()
    }

    @Test("offers and deals through the facade, over loopback, with the key as a bearer token")
    func facade() async throws {
        let harness = try await AcmeHarness()
        let engage = try await harness.start()
        let offers = try await engage.offers(OfferQuery(productIDs: ["magnet"]))
        #expect(offers.items.map(\.id) == ["deal-3"])
        #expect(offers.items.first?.badge?.text == "-50 %")
        let deals = try await engage.deals(limit: 2)
        #expect(deals.items.map(\.id) == ["deal-1", "deal-2"])
        #expect(deals.report.succeeded == ["acme"])
        let sent = harness.host.journal.entries(for: "acme").filter { $0.path == "/deals" }
        #expect(sent.count == 2)
        #expect(
            sent.allSatisfy { entry in
                entry.headers.contains { $0.name.lowercased() == "authorization" && $0.value == "Bearer acme-test-key-42" }
            })
        #expect(sent.last?.query["limit"] == "2")
        await engage.shutdown()
        await harness.stop()
    }

    @Test("a custom capability fans out to every provider and reports the one that failed, keeping the others' items")
    func partialFailure() async throws {
        let harness = try await AcmeHarness()
        let engage = try await harness.start(extra: [.provider(BrokenDeals.self, configuration: .init())])
        let deals = try await engage.deals()
        #expect(deals.items.count == AcmeEmulator.deals.count)
        #expect(deals.report.succeeded == ["acme"])
        #expect(deals.report.failures["broken-deals"]?.httpStatus == 503)
        #expect(deals.report.failures["broken-deals"]?.providerID == "broken-deals")
        await engage.shutdown()
        await harness.stop()
    }

    @Test("claiming: a code once, then .acmeAlreadyClaimed (409); an unknown deal is .acmeUnknownDeal (404); each sent once")
    func claiming() async throws {
        let harness = try await AcmeHarness()
        let engage = try await harness.start()
        let acme = try await engage.provider(AcmeProvider.self)
        let claim = try await acme.claim(dealID: "deal-2")
        #expect(claim.code.hasPrefix("ACME-"))
        #expect(harness.emulator.claims["deal-2"] == claim.code)
        await #expect { _ = try await acme.claim(dealID: "deal-2") } throws: { ($0 as? EngageError)?.code == .acmeAlreadyClaimed }
        await #expect { _ = try await acme.claim(dealID: "no/such deal") } throws: { ($0 as? EngageError)?.code == .acmeUnknownDeal }
        #expect(harness.host.journal.entries(for: "acme").filter { $0.path.hasPrefix("/deals/deal-2") }.count == 2)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("a wrong key is .unauthorized, sent once (a fixed key cannot be renewed)")
    func wrongKey() async throws {
        let harness = try await AcmeHarness()
        let engage = try await harness.start(apiKey: "not-the-key")
        let acme = try await engage.provider(AcmeProvider.self)
        await #expect { _ = try await acme.deals(limit: 3) } throws: { ($0 as? EngageError)?.code == .unauthorized }
        #expect(harness.host.journal.entries(for: "acme").count == 1)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("the completion-handler twin delivers the async result")
    func callbackTwin() async throws {
        let harness = try await AcmeHarness()
        let engage = try await harness.start()
        let acme = try await engage.provider(AcmeProvider.self)
        let deals = try await withCheckedThrowingContinuation { continuation in
            acme.deals(limit: 1) { continuation.resume(with: $0) }
        }
        #expect(deals.map(\.id) == ["deal-1"])
        await engage.shutdown()
        await harness.stop()
    }

    @Test("the configuration validates its settings and hides the key from description and dump")
    func configuration() {
        let configuration = AcmeConfiguration(baseURL: URL(string: "https://api.acme.example")!, apiKey: "acme-secret-key")
        #expect(configuration.validationIssues().isEmpty)
        var dumped = ""
        dump(configuration, to: &dumped)
        #expect(!String(describing: configuration).contains("acme-secret-key") && !dumped.contains("acme-secret-key"))
        #expect(
            AcmeConfiguration(baseURL: URL(string: "https://api.acme.example")!, apiKey: "", pageSize: 101).validationIssues().count == 2)
    }
}
