import Foundation

/// Something a provider offers the user: a loyalty campaign or coupon, a promotion badge on a product,
/// a voucher benefit. Tagged with its provider.
public struct Offer: Codable, Sendable, Hashable, Identifiable {
    /// What kind of offer it is.
    public struct Kind: RawRepresentable, Codable, Sendable, Hashable, ExpressibleByStringLiteral {
        /// The kind as a string, e.g. `"coupon"`.
        public let rawValue: String
        /// A kind from its string (providers may define their own).
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A kind from a string literal.
        public init(stringLiteral value: String) { self.rawValue = value }

        /// A loyalty campaign.
        public static let campaign: Self = "campaign"
        /// A coupon the user holds or can redeem.
        public static let coupon: Self = "coupon"
        /// A promotion on a product (e.g. a Crobox badge).
        public static let promotion: Self = "promotion"
        /// A voucher or benefit.
        public static let voucher: Self = "voucher"
    }

    /// A visual badge to show with the offer (e.g. "Best seller").
    public struct Badge: Codable, Sendable, Hashable {
        /// The badge text, if any.
        public var text: String?
        /// A badge image, if any.
        public var imageURL: URL?
        /// The text colour, if the provider sets one.
        public var foregroundColor: RGBAColor?
        /// The background colour, if the provider sets one.
        public var backgroundColor: RGBAColor?

        /// A badge; every part is optional.
        public init(text: String? = nil, imageURL: URL? = nil, foregroundColor: RGBAColor? = nil, backgroundColor: RGBAColor? = nil) {
            self.text = text
            self.imageURL = imageURL
            self.foregroundColor = foregroundColor
            self.backgroundColor = backgroundColor
        }
    }

    /// Unique within the provider.
    public var id: String
    /// The provider the offer comes from.
    public var providerID: ProviderID
    /// What kind of offer it is.
    public var kind: Kind
    /// The title, possibly in several languages.
    public var title: LocalizedText
    /// A longer description, if any.
    public var details: LocalizedText?
    /// An image for the offer.
    public var imageURL: URL?
    /// Where the offer leads (a web view, a deep link).
    public var actionURL: URL?
    /// The product the offer is about, if any.
    public var productID: String?
    /// A badge to show with it, if any.
    public var badge: Badge?
    /// Its monetary value (discount or voucher amount), if any.
    public var value: Money?
    /// When it becomes valid, if limited.
    public var validFrom: Date?
    /// When it expires, if limited.
    public var validUntil: Date?
    /// Provider-specific extras, flat strings only.
    public var attributes: [String: String]

    /// An offer; everything but the id, provider, kind and title is optional.
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
    /// Which page of results.
    public var page: PageRequest

    /// A query; with no arguments, the first page of every offer.
    public init(productIDs: [String] = [], placementID: String? = nil, language: String? = nil, page: PageRequest = PageRequest()) {
        self.productIDs = productIDs
        self.placementID = placementID
        self.language = language
        self.page = page
    }
}

/// A platform-neutral colour with 8-bit components.
public struct RGBAColor: Codable, Sendable, Hashable {
    /// Red, 0-255.
    public var red: UInt8
    /// Green, 0-255.
    public var green: UInt8
    /// Blue, 0-255.
    public var blue: UInt8
    /// Opacity, 0 (transparent) to 255 (opaque).
    public var alpha: UInt8

    /// A colour; opaque unless `alpha` is given.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }
}
