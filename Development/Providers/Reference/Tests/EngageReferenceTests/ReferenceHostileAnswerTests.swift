@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageReference
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import HTTPTypes
import ReferenceEmulator
import EngageTestTraits
import Testing

/// Passes requests on to URLSession, answering `/items` with `body` instead.
private final class ItemsOverride: HTTPTransport {
    private let base = URLSessionTransport()
    private let body: Data

    init(_ body: String) {
        self.body = Data(body.utf8)
    }

    var enforcesTimeouts: Bool { base.enforcesTimeouts }

    func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
        let path = (request.head.path ?? "").split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard path.hasSuffix("/items") else { return try await base.send(request) }
        var head = HTTPResponse(status: .ok)
        head.headerFields[.contentType] = "application/json"
        return HTTPResponseMessage(head: head, body: body)
    }
}

@Suite("Reference provider: hostile answers", .bounded(.heavy))
struct ReferenceHostileAnswerTests {
    @Test(
        "a price that is huge, negative or not a number is a .decoding error, never a trap",
        arguments: ["1e300", "-12.5", "1e20", #""12.50""#]
    )
    func impossiblePrices(price: String) async throws {
        let password = "pw-prices-reference"
        let host = SandboxHost(emulators: [ReferenceEmulator(configuration: .init(password: password))])
        let baseURL = try #require(try await host.start().baseURL(for: "reference"))
        var configuration = EngageConfiguration.preset(.testing, appID: "org.engagekit.reference-tests")
        try configuration.setProvider("reference", ReferenceProvider.Configuration(baseURL: baseURL))
        let transport = ItemsOverride(#"{"items":[{"id":1,"name":"Espresso","price":2.5},{"id":2,"name":"Odd","price":\#(price)}]}"#)
        let registry = try ProviderRegistry(
            configuration: configuration, environment: RegistryEnvironment(transport: transport, secretStore: InMemorySecretStore()))
        try await registry.register(.provider(ReferenceProvider.self, from: configuration))
        _ = await registry.start()
        let reference = try await registry.provider(ReferenceProvider.self)
        try await reference.logIn(UserIdentity(userID: "maria", attributes: ["reference.password": .string(password)]))
        do {
            _ = try await reference.offers(OfferQuery())
            Issue.record("an impossible price was accepted")
        } catch let error as EngageError {
            #expect(error.code == .decoding)
        }
        await registry.shutdown()
        await host.stop()
    }

    @Test("hostile variations of the real login and items answers: values or EngageErrors, never a trap")
    func hostileAnswers() async throws {
        let password = "pw-hostile-reference"
        let host = SandboxHost(emulators: [ReferenceEmulator(configuration: .init(password: password))])
        let baseURL = try #require(try await host.start().baseURL(for: "reference"))
        var configuration = EngageConfiguration.preset(.testing, appID: "org.engagekit.reference-tests")
        try configuration.setProvider("reference", ReferenceProvider.Configuration(baseURL: baseURL))
        let answers = HostileAnswers()
        let registry = try ProviderRegistry(
            configuration: configuration, environment: RegistryEnvironment(transport: answers, secretStore: InMemorySecretStore()))
        try await registry.register(.provider(ReferenceProvider.self, from: configuration))
        _ = await registry.start()
        let reference = try await registry.provider(ReferenceProvider.self)
        let identity = UserIdentity(userID: "maria", attributes: ["reference.password": .string(password)])

        // The provider's operations throw untyped; anything but an EngageError is a failure of the property.
        func engageErrors(_ body: () async throws -> Void) async throws(EngageError) {
            do {
                try await body()
            } catch let error as EngageError {
                throw error
            } catch {
                Issue.record("not an EngageError: \(type(of: error))")
                throw EngageError(.unsupported, "\(type(of: error))")
            }
        }
        let logins = await answers.sweep(seed: 51) { () async throws(EngageError) in
            try await engageErrors { try await reference.logIn(identity) }
        }
        let items = await answers.sweep(count: 120, seed: 52) { () async throws(EngageError) in
            try await engageErrors { _ = try await reference.items() }
        }
        for outcomes in [logins, items] {
            #expect(outcomes.count >= 60)
            #expect(outcomes.contains { if case let .failure(error) = $0 { error.code == .decoding } else { false } })
        }
        await registry.shutdown()
        await host.stop()
    }
}
