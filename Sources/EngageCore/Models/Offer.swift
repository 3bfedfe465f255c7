import Foundation

/// Something a provider offers the user: a loyalty campaign or coupon, a promotion badge on a product,
/// a voucher benefit. Tagged with its provider.
public struct Offer: Codable, Sendable, Hashable, Identifiable {
    /// What kind of offer it is.
    public struct Kind: RawRepresentable, Codable, Sendable, Hashable, ExpressibleByStringLiteral {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { self.rawValue = value }

        public static let campaign: Self = "campaign"
        public static let coupon: Self = "coupon"
        public static let promotion: Self = "promotion"
        public static let voucher: Self = "voucher"
    }

    /// A visual badge to show with the offer (e.g. "Best seller").
    public struct Badge: Codable, Sendable, Hashable {
        public var text: String?
        public var imageURL: URL?
        public var foregroundColor: RGBAColor?
        public var backgroundColor: RGBAColor?

        public init(text: String? = nil, imageURL: URL? = nil, foregroundColor: RGBAColor? = nil, backgroundColor: RGBAColor? = nil) {
            self.text = text
            self.imageURL = imageURL
            self.foregroundColor = foregroundColor
            self.backgroundColor = backgroundColor
        }
    }

    /// Unique within the provider.
    public var id: String
    public var providerID: ProviderID
    public var kind: Kind
    public var title: LocalizedText
    public var details: LocalizedText?
    public var imageURL: URL?
    /// Where the offer leads (a web view, a deep link).
    public var actionURL: URL?
    /// The product the offer is about, if any.
    public var productID: String?
    public var badge: Badge?
    public var value: Money?
    public var validFrom: Date?
    public var validUntil: Date?
    /// Provider-specific extras, flat strings only.
    public var attributes: [String: String]

    public init(
        id: String, providerID: ProviderID, kind: Kind, title: LocalizedText, details: LocalizedText? = nil,
        imageURL: URL? = nil, actionURL: URL? = nil, productID: String? = nil, badge: Badge? = nil,
        value: Money? = nil, validFrom: Date? = nil, validUntil: Date? = nil, attributes: [String: String] = [:]
    ) {
        self.id = id
        self.providerID = providerID
        self.kind = kind
        self.title = title
        self.details = details
        self.imageURL = imageURL
        self.actionURL = actionURL
        self.productID = productID
        self.badge = badge
        self.value = value
        self.validFrom = validFrom
        self.validUntil = validUntil
        self.attributes = attributes
    }
}

/// What offers to ask for. Providers use the fields that apply to them and ignore the rest.
public struct OfferQuery: Codable, Sendable, Hashable {
    /// Products the offers should be about (Crobox promotions).
    public var productIDs: [String]
    /// A placement on screen (Crobox placeholder id).
    public var placementID: String?
    /// Preferred language.
    public var language: String?
    public var page: PageRequest

    public init(productIDs: [String] = [], placementID: String? = nil, language: String? = nil, page: PageRequest = PageRequest()) {
        self.productIDs = productIDs
        self.placementID = placementID
        self.language = language
        self.page = page
    }
}

/// A platform-neutral colour with 8-bit components.
public struct RGBAColor: Codable, Sendable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }
}
