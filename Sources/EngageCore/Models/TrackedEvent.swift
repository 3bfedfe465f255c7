import Foundation

/// An analytics event the app tracks; the facade's `track` fans it out to every event-tracking
/// provider, each mapping it to its own wire format.
public struct TrackedEvent: Codable, Sendable, Hashable {
    /// Well-known event kinds providers map specially; anything else is a custom event.
    public struct Kind: RawRepresentable, Codable, Sendable, Hashable, ExpressibleByStringLiteral {
        /// The kind as a string, e.g. `"add_to_cart"`.
        public let rawValue: String
        /// A kind from its string.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A kind from a string literal.
        public init(stringLiteral value: String) { self.rawValue = value }

        /// A screen was shown (`name` is the screen).
        public static let screenView: Self = "screen_view"
        /// A product page was viewed.
        public static let productView: Self = "product_view"
        /// Something was clicked (for example a promotion).
        public static let click: Self = "click"
        /// A product was added to the cart.
        public static let addToCart: Self = "add_to_cart"
        /// A product was removed from the cart.
        public static let removeFromCart: Self = "remove_from_cart"
        /// Checkout started.
        public static let checkout: Self = "checkout"
        /// A purchase completed.
        public static let purchase: Self = "purchase"
        /// Anything else (`name` says what).
        public static let custom: Self = "custom"
    }

    /// What happened.
    public var kind: Kind
    /// The event's name (for custom events and screen names).
    public var name: String
    /// The product concerned, if any.
    public var productID: String?
    /// The price concerned, if any.
    public var price: Money?
    /// How many items, if relevant.
    public var quantity: Int?
    /// Free-form properties, as JSON values (strings, numbers, booleans, arrays, objects); never put
    /// secrets here. Each provider maps them to its wire: see its page for how (Crobox sends every value
    /// as text, arrays and objects as compact JSON; Warply sends them as they are).
    public var properties: [String: JSONValue]
    /// When it happened (now by default).
    public var occurredAt: Date

    /// An event of `kind`; `name` defaults to the kind, `occurredAt` to now.
    public init(
        _ kind: Kind, name: String? = nil, productID: String? = nil, price: Money? = nil, quantity: Int? = nil,
        properties: [String: JSONValue] = [:], occurredAt: Date = Date()
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
///
/// Its e-mail and attributes (where a provider may carry a password) are secrets: `description`,
/// `debugDescription`, `dump` and any other reflection show the user id and the attribute names only.
public struct UserIdentity: Codable, Sendable, Hashable {
    /// The app's own stable user id.
    public var userID: String
    /// The user's e-mail address, if known (redacted in logs and descriptions).
    public var email: String?
    /// The user's traits and provider-specific credentials or hints (e.g. `"warply.guid"`), as JSON
    /// values (strings, numbers, booleans, arrays, objects); treated as secrets in logs.
    public var attributes: [String: JSONValue]

    /// An identity for `userID`, with an optional e-mail and attributes.
    public init(userID: String, email: String? = nil, attributes: [String: JSONValue] = [:]) {
        self.userID = userID
        self.email = email
        self.attributes = attributes
    }

    /// The user id, with the e-mail redacted and only the attribute names.
    public var description: String {
        "UserIdentity(userID: \(userID), email: \(email == nil ? "nil" : "<redacted>"), attributes: \(attributes.keys.sorted()))"
    }
}

/// Secrets stay out of `dump`, debuggers and `Mirror` (`SecretBearing`).
@_spi(EngageProvider) extension UserIdentity: SecretBearing {}
