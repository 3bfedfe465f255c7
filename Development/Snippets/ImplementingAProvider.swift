// Implementing a provider: a third-party provider with an offers capability, its backend's rules
// as the client's response policy, a session refreshed by the core's TokenManager, and its registration. Runs
// offline against an in-memory backend.

// snippet.hide
@_spi(EngageProvider) import Engage
import Foundation
// snippet.show

// snippet.imports
// A provider module imports the provider-author surface of the core and of the test kit: the
// `EngageProvider` SPI, which apps that import `Engage` never see.
@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageTesting
// snippet.end

// snippet.refresher
/// The provider-specific half of a session: one refresh request, sent once (`allowsRetry: false`,
/// the refresh token rotates); `TokenManager` does single flight, storage, expiry and the breaker.
struct PerksRefresher: TokenRefresher {
    let client: APIClient

    private struct Answer: Decodable {
        var accessToken: String
        var refreshToken: String
        enum CodingKeys: String, CodingKey { case accessToken = "access_token", refreshToken = "refresh_token" }
    }

    func refresh(_ tokens: TokenPair) async throws -> TokenPair {
        let answer = try await client.json(
            Answer.self, .post, "/auth/refresh", body: .json(["refresh_token": tokens.refreshToken ?? ""]),
            options: RequestOptions(allowsRetry: false, authorization: .none)
        )
        return TokenPair(accessToken: answer.accessToken, refreshToken: answer.refreshToken)
    }
}
// snippet.end

// snippet.provider
/// Perks from a weather service: an offers source for the facade, and its own `claim` operation.
public final class WeatherPerks: EngageProvider {
    /// Where the service is; checked when the provider is registered.
    public struct Configuration: ProviderConfiguration {
        public var baseURL: URL
        public init(baseURL: URL) { self.baseURL = baseURL }
        public func validationIssues() -> [String] { baseURL.host == nil ? ["baseURL must be an absolute URL."] : [] }
    }

    public static let descriptor = ProviderDescriptor(
        id: "weatherperks", displayName: "Weather perks", version: "1.0.0"
    )

    private struct Perk: Decodable { var id: String, title: String }
    private struct Refusal: Decodable { var refused: String }

    let context: ProviderContext
    let client: APIClient
    @_spi(EngageProvider) public let tokens: TokenManager

    @_spi(EngageProvider) public init(configuration: Configuration, context: ProviderContext) async throws {
        self.context = context
        // The backend's rules go into the client's response policy, not into a wrapper: this one
        // refuses in the body of a 200, and names one error status.
        // snippet.policy
        let policy = ResponsePolicy { answer in
            if answer.response.status == 410 { return .fail(EngageError(.invalidInput, "This perk has expired.", httpStatus: 410)) }
            guard answer.response.isSuccess, let refusal = try? JSONDecoder().decode(Refusal.self, from: answer.response.body) else {
                return .accept
            }
            return .fail(EngageError(.httpStatus, "Weather perks refused: \(answer.redactor.redact(text: refusal.refused))"))
        }
        // snippet.end
        let publicClient = try context.makeAPIClient(baseURL: configuration.baseURL, policy: policy)
        tokens = context.makeTokenManager(refresher: PerksRefresher(client: publicClient))
        client = try context.makeAPIClient(
            baseURL: configuration.baseURL, authorizer: BearerAuthorizer(tokens: tokens), policy: policy
        )
    }

    /// Today's perks as offers (no session needed).
    public func offers(_ query: OfferQuery) async throws(EngageError) -> [Offer] {
        try await context.perform(PerksOperation.offers) {
            let perks = try await client.json([Perk].self, .get, "/perks", options: RequestOptions(authorization: .none))
            return perks.map { Offer(id: $0.id, providerID: Self.descriptor.id, kind: .promotion, title: LocalizedText($0.title)) }
        }
    }

}

/// The perks operations, declared once: the name each one's events and requests carry, and whether
/// its requests may be resent after a lost answer.
enum PerksOperation: String, ProviderOperation {
    case offers
    case claim = "claim_perk"

    /// Reading perks twice does no harm; claiming twice could claim two.
    var isRepeatable: Bool { self == .offers }
}

// The facade's `engage.offers()` reaches providers through the capability protocols; their
// conformances are part of the provider-author surface, so they are declared under the same SPI.
@_spi(EngageProvider) extension WeatherPerks: OffersProviding {}
// snippet.end

// snippet.operation
extension WeatherPerks {
    /// Claims a perk for the signed-in user; fails with `.unauthorized` before sending when nobody is.
    public func claim(perkID: String) async throws(EngageError) {
        try await context.perform(PerksOperation.claim) {
            _ = try await client.data(.post, APIClient.path("perks", perkID, "claim"), options: RequestOptions(authorization: .required))
        }
    }

    /// The completion-handler twin of ``claim(perkID:)``.
    @discardableResult
    public func claim(
        perkID: String, completion: @escaping @MainActor @Sendable (Result<Void, EngageError>) -> Void
    ) -> any EngageCancellable {
        context.callback(completion) { try await self.claim(perkID: perkID) }
    }
}
// snippet.end

// A value holding a secret shows only its redacted description, also to `dump` and `Mirror`.
// snippet.section
extension ProviderSection {
    /// WeatherPerks' section.
    public static func weatherPerks(_ configuration: WeatherPerks.Configuration) -> ProviderSection {
        ProviderSection(WeatherPerks.self, configuration)
    }
}
// snippet.end

// snippet.secret
struct AcmeSession: Codable, Sendable, SecretBearing {
    var apiKey: String
    var description: String { "AcmeSession(apiKey: <redacted>)" }
}
// snippet.end

// snippet.hide
let backend = InMemoryTransport()
backend.route(.get, "/perks") { _ in .json([["id": "rain-1", "title": "10 % off umbrellas"]]) }
backend.route(.post, "/perks/rain-1/claim") { _ in .json(["claimed": true]) }
let baseURL = URL(string: "https://perks.example.com")!
// snippet.show

// snippet.register
var configuration = EngageConfiguration.preset(.production, appID: "com.example.shop")
configuration.storage = .inMemory
// snippet.registration
let engage = try Engage(
    configuration: configuration,
    providers: [.provider(WeatherPerks.self, configuration: .init(baseURL: baseURL))],
    environment: RegistryEnvironment(transport: backend, secretStore: InMemorySecretStore())
)
// snippet.end
let offers = try await engage.offers()
print(offers.items.map { $0.title.value() })

let perks = try await engage.provider(WeatherPerks.self)
try await perks.tokens.setTokens(TokenPair(accessToken: "access", refreshToken: "refresh"))
try await perks.claim(perkID: "rain-1")
// snippet.end

// snippet.hide
await engage.shutdown()

// snippet.model-state
@MainActor public final class LoyaltyCard {
    public struct Snapshot: Sendable, Equatable {
        public var points = 0
        public var isLoading = false
    }
    private let state = ObservableModelState(Snapshot(), fields: [.field(\.points), .field(\.isLoading)])
    public var points: Int { state[\.points] }
    public var updates: AsyncStream<Snapshot> { state.updates }
    func show(points: Int) { state.update { $0.points = points } }
}
// snippet.end

// snippet.hide
let card = LoyaltyCard()
card.show(points: 3)
for await snapshot in card.updates {
    print("card:", card.points, snapshot.points)
    break
}
