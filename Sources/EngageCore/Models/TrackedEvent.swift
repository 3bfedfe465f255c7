import Foundation

/// An analytics event the app tracks; the facade's `track` fans it out to every event-tracking
/// provider, each mapping it to its own wire format.
public struct TrackedEvent: Codable, Sendable, Hashable {
    /// Well-known event kinds providers map specially; anything else is a custom event.
    public struct Kind: RawRepresentable, Codable, Sendable, Hashable, ExpressibleByStringLiteral {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { self.rawValue = value }

        public static let screenView: Self = "screen_view"
        public static let productView: Self = "product_view"
        public static let click: Self = "click"
        public static let addToCart: Self = "add_to_cart"
        public static let removeFromCart: Self = "remove_from_cart"
        public static let checkout: Self = "checkout"
        public static let purchase: Self = "purchase"
        public static let custom: Self = "custom"
    }

    public var kind: Kind
    /// The event's name (for custom events and screen names).
    public var name: String
    public var productID: String?
    public var price: Money?
    public var quantity: Int?
    /// Free-form properties; never put secrets here.
    public var properties: [String: String]
    public var occurredAt: Date

    public init(
        _ kind: Kind, name: String? = nil, productID: String? = nil, price: Money? = nil, quantity: Int? = nil,
        properties: [String: String] = [:], occurredAt: Date = Date()
    ) {
        self.kind = kind
        self.name = name ?? kind.rawValue
        self.productID = productID
        self.price = price
        self.quantity = quantity
        self.properties = properties
        self.occurredAt = occurredAt
    }
}

/// Who the user is, as the app knows it; `logIn` hands it to every identity-aware provider.
public struct UserIdentity: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The app's own stable user id.
    public var userID: String
    public var email: String?
    /// Provider-specific credentials or hints (e.g. `"warply.guid"`); treated as secrets in logs.
    public var attributes: [String: String]

    public init(userID: String, email: String? = nil, attributes: [String: String] = [:]) {
        self.userID = userID
        self.email = email
        self.attributes = attributes
    }

    public var description: String {
        "UserIdentity(userID: \(userID), email: \(email == nil ? "nil" : "<redacted>"), attributes: \(attributes.keys.sorted()))"
    }
}
