@_spi(EngageProvider) import EngageCore
import Foundation
import GRDB
import HTTPTypes

/// The provider for the sandbox's reference backend (`EngageSandbox.ReferenceEmulator`): bearer tokens
/// with rotation, an authorised item list exposed as offers, analytics through the durable queue, and
/// log in / log out.
///
/// It is the smallest complete provider: the end-to-end tests, the demo and the benchmarks use it to
/// exercise the whole core over real HTTP, and CONTRIBUTING.md reads it as an example.
public final class ReferenceProvider: EngageProvider {
    /// Where the reference backend is and how much data to ask for.
    public struct Configuration: ProviderConfiguration, Equatable {
        /// The emulator's base URL, e.g. `http://127.0.0.1:8080/reference`.
        public var baseURL: URL
        /// The approximate size of the `/items` document, in bytes.
        public var itemsSize: Int

        /// A configuration for the emulator at `baseURL`, asking for documents of about `itemsSize` bytes (2048 by default).
        public init(baseURL: URL, itemsSize: Int = 2048) {
            self.baseURL = baseURL
            self.itemsSize = itemsSize
        }

        /// `itemsSize` must be positive.
        public func validationIssues() -> [String] {
            itemsSize > 0 ? [] : ["itemsSize must be positive (got \(itemsSize))."]
        }
    }

    /// Id `reference`; offers, event tracking and identity.
    public static let descriptor = ProviderDescriptor(
        id: "reference", displayName: "Reference backend", version: "1.0.0"
    )

    /// Creates `reference_offer_cache`.
    @_spi(EngageProvider) public static let migrations = [
        StorageMigration("create offer cache") { db in
            try db.create(table: "reference_offer_cache") { table in
                table.primaryKey("id", .text)
                table.column("title", .text).notNull()
            }
        }
    ]

    /// The durable queue destination of tracked events.
    public static let analyticsDestination = "reference.events"

    let context: ProviderContext
    let configuration: Configuration
    /// The provider's session.
    @_spi(EngageProvider) public let tokens: TokenManager
    let client: APIClient
    let publicClient: APIClient

    /// Creates the public and the authorised clients and the session.
    @_spi(EngageProvider) public init(configuration: Configuration, context: ProviderContext) async throws {
        self.context = context
        self.configuration = configuration
        publicClient = try context.makeAPIClient(baseURL: configuration.baseURL)
        tokens = context.makeTokenManager(refresher: Refresher(client: publicClient))
        client = try context.makeAPIClient(baseURL: configuration.baseURL, authorizer: BearerAuthorizer(tokens: tokens))
    }

    /// Registers the analytics destination.
    @_spi(EngageProvider) public func start() async throws {
        try await context.analytics.register(destination: Self.analyticsDestination, deliverer: EventDeliverer(client: publicClient))
    }

    /// Unregisters the analytics destination.
    @_spi(EngageProvider) public func shutdown() async {
        await context.analytics.unregister(destination: Self.analyticsDestination)
    }

    // MARK: Identity

    /// Logs in with `identity.userID` and the password in `identity.attributes["reference.password"]`.
    public func logIn(_ identity: UserIdentity) async throws {
        try await context.perform(ReferenceOperation.logIn) {
            let answer = try await publicClient.json(
                TokenAnswer.self, .post, "/auth/token",
                body: .json(["username": identity.userID, "password": identity.attributes["reference.password"]?.stringValue ?? ""]),
                options: RequestOptions(authorization: .none)
            )
            try await tokens.setTokens(answer.pair)
        }
    }

    /// Forgets the session.
    public func logOut() async throws {
        try await context.perform(ReferenceOperation.logOut) { try await tokens.clear() }
    }

    // MARK: Offers

    /// One item of the reference catalogue.
    public struct Item: Decodable, Sendable, Equatable {
        /// The item's id.
        public var id: Int
        /// The item's name.
        public var name: String
        /// The price in euros: finite, not negative, and small enough to count in cents.
        public var price: Double

        private enum CodingKeys: String, CodingKey { case id, name, price }

        /// Reads an item; a price that is not a finite number of euros from 0 to 10¹³ is a decoding
        /// error, so that ``offers(_:)`` can count it in cents.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int.self, forKey: .id)
            name = try container.decode(String.self, forKey: .name)
            price = try container.decode(Double.self, forKey: .price)
            guard price.isFinite, (0...1e13).contains(price) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .price, in: container, debugDescription: "a price must be a number of euros from 0 to 10¹³")
            }
        }
    }

    /// The catalogue (needs a session).
    public func items() async throws -> [Item] {
        try await context.perform(ReferenceOperation.items) {
            struct Document: Decodable { var items: [Item] }
            return try await client.json(
                Document.self, .get, "/items", query: [("size", String(configuration.itemsSize))],
                options: RequestOptions(authorization: .required)
            ).items
        }
    }

    /// The catalogue as promotions in EUR (needs a session).
    public func offers(_ query: OfferQuery) async throws -> [Offer] {
        let items = try await items()
        return items.map { item in
            Offer(
                id: String(item.id), providerID: Self.descriptor.id, kind: .promotion, title: LocalizedText(item.name),
                value: Money(minorUnits: Int64((item.price * 100).rounded()), currency: "EUR")
            )
        }
    }

    // MARK: Tracking

    /// Stores `event` in the durable queue for the `/events` endpoint.
    public func track(_ event: TrackedEvent) async throws {
        try await context.perform(ReferenceOperation.track) {
            let payload = try JSONSerialization.data(
                withJSONObject: ["name": event.name, "kind": event.kind.rawValue], options: .sortedKeys)
            _ = try await context.analytics.enqueue(payload, destination: Self.analyticsDestination)
        }
    }
}

private struct TokenAnswer: Decodable {
    var accessToken: String
    var refreshToken: String
    var pair: TokenPair { TokenPair(accessToken: accessToken, refreshToken: refreshToken) }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
    }
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

// The capabilities the facade fans out to: the provider-author surface.
@_spi(EngageProvider) extension ReferenceProvider: OffersProviding, EventTracking, IdentityAware {}

/// Every operation of the reference provider, declared once: the name its events and requests carry
/// and whether its requests may be resent.
enum ReferenceOperation: String, ProviderOperation {
    case logIn = "log_in"
    case logOut = "log_out"
    case items
    case track

    /// Reading items may be repeated; a login may not (a resend could open a second session).
    var isRepeatable: Bool { self == .items }
}
