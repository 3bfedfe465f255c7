import Engage
import Foundation
import GRDB
import HTTPTypes

/// A third-party style provider for the sandbox's reference backend: bearer tokens with rotation,
/// an authorised item list exposed as offers, analytics through the durable queue, login/logout.
/// It exercises the whole core end to end over real HTTP.
final class ReferenceProvider: EngageProvider, OffersProviding, EventTracking, IdentityAware {
    struct Configuration: ProviderConfiguration, Equatable {
        var baseURL: URL
        var itemsSize: Int = 2048

        func validationIssues() -> [String] {
            itemsSize > 0 ? [] : ["itemsSize must be positive (got \(itemsSize))."]
        }
    }

    static let descriptor = ProviderDescriptor(
        id: "reference", displayName: "Reference backend", version: "1.0.0",
        capabilities: [.offers, .eventTracking, .identity]
    )

    static let migrations = [
        StorageMigration("create offer cache") { db in
            try db.create(table: "reference_offer_cache") { table in
                table.primaryKey("id", .text)
                table.column("title", .text).notNull()
            }
        }
    ]

    static let analyticsDestination = "reference.events"

    let context: ProviderContext
    let configuration: Configuration
    let tokens: TokenManager
    let client: APIClient
    let publicClient: APIClient

    init(configuration: Configuration, context: ProviderContext) async throws {
        self.context = context
        self.configuration = configuration
        publicClient = try context.makeAPIClient(baseURL: configuration.baseURL)
        tokens = context.makeTokenManager(refresher: Refresher(client: publicClient))
        client = try context.makeAPIClient(baseURL: configuration.baseURL, authorizer: BearerAuthorizer(tokens: tokens))
    }

    func start() async throws {
        try await context.analytics.register(destination: Self.analyticsDestination, deliverer: EventDeliverer(client: publicClient))
    }

    func shutdown() async {
        await context.analytics.unregister(destination: Self.analyticsDestination)
    }

    // MARK: Identity

    func logIn(_ identity: UserIdentity) async throws {
        try await context.perform("log_in") {
            let answer = try await publicClient.json(
                TokenAnswer.self, .post, "/auth/token",
                body: .json(["username": identity.userID, "password": identity.attributes["reference.password"] ?? ""]),
                options: RequestOptions(authorization: .none)
            )
            try await tokens.setTokens(answer.pair)
        }
    }

    func logOut() async throws {
        try await context.perform("log_out") { try await tokens.clear() }
    }

    // MARK: Offers

    struct Item: Decodable, Sendable {
        var id: Int
        var name: String
        var price: Double
    }

    func items() async throws -> [Item] {
        try await context.perform("items") {
            struct Document: Decodable { var items: [Item] }
            return try await client.json(
                Document.self, .get, "/items", query: [("size", String(configuration.itemsSize))],
                options: RequestOptions(authorization: .required)
            ).items
        }
    }

    func offers(_ query: OfferQuery) async throws -> [Offer] {
        let items = try await items()
        return items.map { item in
            Offer(
                id: String(item.id), providerID: Self.descriptor.id, kind: .promotion, title: LocalizedText(item.name),
                value: Money(minorUnits: Int64((item.price * 100).rounded()), currency: "EUR")
            )
        }
    }

    /// The callback twin of `items()`.
    @discardableResult
    func items(completion: @escaping @Sendable (Result<[Item], EngageError>) -> Void) -> any Cancellable {
        context.callback(completion) { try await self.items() }
    }

    // MARK: Tracking

    func track(_ event: TrackedEvent) async throws {
        try await context.perform("track") {
            let payload = try JSONSerialization.data(withJSONObject: ["name": event.name, "kind": event.kind.rawValue], options: .sortedKeys)
            _ = try await context.analytics.enqueue(payload, destination: Self.analyticsDestination)
        }
    }
}

private struct TokenAnswer: Decodable {
    var access_token: String
    var refresh_token: String
    var pair: TokenPair { TokenPair(accessToken: access_token, refreshToken: refresh_token) }
}

private struct Refresher: TokenRefresher {
    let client: APIClient

    func refresh(_ tokens: TokenPair) async throws -> TokenPair {
        try await client.json(
            TokenAnswer.self, .post, "/auth/refresh", body: .json(["refresh_token": tokens.refreshToken ?? ""]),
            options: RequestOptions(allowsRetry: false, authorization: .none)
        ).pair
    }
}

private struct EventDeliverer: QueueDelivering {
    let client: APIClient

    func deliver(_ batch: [QueuedEvent]) async throws {
        struct Event: Encodable, Sendable {
            var id: String
            var name: String
            var payload: [String: String]
        }
        let events = batch.map { queued -> Event in
            let object = (try? JSONSerialization.jsonObject(with: queued.payload) as? [String: String]) ?? [:]
            return Event(id: queued.idempotencyKey, name: object["name"] ?? "unknown", payload: object)
        }
        _ = try await client.data(
            .post, "/events", body: .json(["events": events]),
            options: RequestOptions(isRepeatable: true, authorization: .none)
        )
    }
}
