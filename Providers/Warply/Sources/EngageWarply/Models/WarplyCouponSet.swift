import Foundation

/// A coupon set: the template coupons are issued from (`coupon` / `retrieve_multilingual`, in the
/// `MAPP_COUPON` section).
///
/// Wire form:
/// ```json
/// { "uuid": "cs-1", "name": "Κουπόνι καυσίμων", "description": "10% έκπτωση", "img_preview": "https:\/\/…\/cs-1.png",
///   "expiration": "2026-12-31 23:59", "discount": "10%", "discount_type": "percentage", "final_price": "9.90",
///   "couponset_type": "supermarket", "merchant_uuid": "m-1", "terms": "…", "shop_availability": "all",
///   "active": "1", "points": 200, "visible": true }
/// ```
/// Only `uuid` is required; `active` and `visible` default to `true` when absent.
public struct WarplyCouponSet: Codable, Sendable, Hashable, Identifiable {
    /// The coupon set's id.
    public var uuid: String
    /// The name.
    public var name: String?
    /// The description.
    public var description: String?
    /// The preview image address (`img_preview`).
    public var imagePreview: String?
    /// When the set expires (`expiration`, sent as `yyyy-MM-dd HH:mm`).
    public var expiration: WarplyTimestamp?
    /// The discount as displayed (`discount`), e.g. `10%` or `5`.
    public var discount: String?
    /// How to read `discount` (`discount_type`), e.g. `percentage` or `value`.
    public var discountType: String?
    /// The price after the discount (`final_price`).
    public var finalPrice: Decimal?
    /// The set's type (`couponset_type`), e.g. `supermarket`.
    public var couponSetType: String?
    /// The merchant offering the coupons (`merchant_uuid`).
    public var merchantUUID: String?
    /// The terms and conditions.
    public var terms: String?
    /// Where the coupons can be used (`shop_availability`).
    public var shopAvailability: String?
    /// Whether the set is active (`active`); `true` when not sent.
    public var isActive: Bool
    /// The points a coupon costs (`points`), if any.
    public var points: Int?
    /// Whether the set is shown to users (`visible`); `true` when not sent.
    public var isVisible: Bool

    /// The coupon set's identity: its UUID.
    public var id: String { uuid }

    /// `imagePreview` as a `URL`, when it is one.
    public var imagePreviewURL: URL? { WarplyModelSupport.url(imagePreview) }

    enum CodingKeys: String, CodingKey {
        case uuid, name, description
        case imagePreview = "img_preview"
        case expiration, discount
        case discountType = "discount_type"
        case finalPrice = "final_price"
        case couponSetType = "couponset_type"
        case merchantUUID = "merchant_uuid"
        case terms
        case shopAvailability = "shop_availability"
        case isActive = "active"
        case points
        case isVisible = "visible"
    }

    /// A coupon set; every field but the UUID is optional.
    public init(
        uuid: String,
        name: String? = nil,
        description: String? = nil,
        imagePreview: String? = nil,
        expiration: WarplyTimestamp? = nil,
        discount: String? = nil,
        discountType: String? = nil,
        finalPrice: Decimal? = nil,
        couponSetType: String? = nil,
        merchantUUID: String? = nil,
        terms: String? = nil,
        shopAvailability: String? = nil,
        isActive: Bool = true,
        points: Int? = nil,
        isVisible: Bool = true
    ) {
        self.uuid = uuid
        self.name = name
        self.description = description
        self.imagePreview = imagePreview
        self.expiration = expiration
        self.discount = discount
        self.discountType = discountType
        self.finalPrice = finalPrice
        self.couponSetType = couponSetType
        self.merchantUUID = merchantUUID
        self.terms = terms
        self.shopAvailability = shopAvailability
        self.isActive = isActive
        self.points = points
        self.isVisible = isVisible
    }

    /// Decodes the wire form leniently; throws when `uuid` is missing or empty, or a field has a wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        uuid = try container.requiredString(forKey: .uuid)
        name = try container.looseString(forKey: .name)
        description = try container.looseString(forKey: .description)
        imagePreview = try container.cleanedURLString(forKey: .imagePreview)
        expiration = try container.looseTimestamp(forKey: .expiration)
        discount = try container.looseString(forKey: .discount)
        discountType = try container.looseString(forKey: .discountType)
        finalPrice = try container.looseDecimal(forKey: .finalPrice)
        couponSetType = try container.looseString(forKey: .couponSetType)
        merchantUUID = try container.looseString(forKey: .merchantUUID)
        terms = try container.looseString(forKey: .terms)
        shopAvailability = try container.looseString(forKey: .shopAvailability)
        isActive = try container.looseBool(forKey: .isActive) ?? true
        points = try container.looseInt(forKey: .points)
        isVisible = try container.looseBool(forKey: .isVisible) ?? true
    }
}
