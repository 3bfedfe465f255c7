@_spi(EngageProvider) import EngageCore
import Foundation

/// A coupon the user holds (`coupon` / `user_coupons` or `user_coupons_universal`, in the
/// `MAPP_COUPON` section).
///
/// Wire form:
/// ```json
/// { "coupon_id": "c-9", "couponset_uuid": "cs-1", "name": "Κουπόνι καυσίμων", "coupon": "FUEL-7Q2X",
///   "barcode": "5201234567890", "status": "1", "expiration": "2026-12-31 23:59:00",
///   "redeemed_date": null, "couponset_data": { "uuid": "cs-1", … }, "merchant_details": { "uuid": "m-1", … },
///   "discount": "10%" }
/// ```
/// `status` is 1 for an active coupon and 0 for a redeemed one (1 when not sent). Only
/// `couponset_uuid` is required. `description` never shows the code or the barcode.
public struct WarplyCoupon: Codable, Sendable, Hashable {
    /// The coupon's own id (`coupon_id`), when the server sends one.
    public var id: String?
    /// The coupon set the coupon was issued from (`couponset_uuid`).
    public var couponSetUUID: String
    /// The name.
    public var name: String?
    /// The code the user shows at the till (`coupon`). Secret: never log it.
    public var code: String?
    /// The barcode value. Secret: never log it.
    public var barcode: String?
    /// The state (`status`): ``activeStatus`` or ``redeemedStatus``.
    public var status: Int
    /// When the coupon expires (`expiration`).
    public var expiration: WarplyTimestamp?
    /// When the coupon was redeemed (`redeemed_date`).
    public var redeemedDate: WarplyTimestamp?
    /// The coupon set's details (`couponset_data`), when asked for.
    public var couponSet: WarplyCouponSet?
    /// The merchant's details (`merchant_details`), when asked for.
    public var merchant: WarplyMerchant?
    /// The discount as displayed (`discount`), e.g. `10%` or `5`.
    public var discount: String?

    /// The `status` of a coupon that can still be used.
    public static let activeStatus = 1
    /// The `status` of a coupon that was used.
    public static let redeemedStatus = 0

    /// Whether the coupon can still be used (`status == 1`).
    public var isActive: Bool { status == Self.activeStatus }
    /// Whether the coupon was used (`status == 0`).
    public var isRedeemed: Bool { status == Self.redeemedStatus }

    /// A summary with the code and barcode masked (all but their last two characters).
    public var description: String {
        "WarplyCoupon(id: \(WarplyModelSupport.show(id)), couponSetUUID: \(couponSetUUID), name: \(WarplyModelSupport.show(name)), "
            + "code: \(WarplyModelSupport.show(code.map(WarplyModelSupport.maskKeepingLastTwo))), "
            + "barcode: \(WarplyModelSupport.show(barcode.map(WarplyModelSupport.maskKeepingLastTwo))), status: \(status), "
            + "expiration: \(WarplyModelSupport.show(expiration)), redeemedDate: \(WarplyModelSupport.show(redeemedDate)))"
    }

    enum CodingKeys: String, CodingKey {
        case id = "coupon_id"
        case couponSetUUID = "couponset_uuid"
        case name
        case code = "coupon"
        case barcode, status, expiration
        case redeemedDate = "redeemed_date"
        case couponSet = "couponset_data"
        case merchant = "merchant_details"
        case discount
    }

    /// A coupon; every field but the coupon set UUID is optional, and `status` defaults to active.
    public init(
        id: String? = nil,
        couponSetUUID: String,
        name: String? = nil,
        code: String? = nil,
        barcode: String? = nil,
        status: Int = WarplyCoupon.activeStatus,
        expiration: WarplyTimestamp? = nil,
        redeemedDate: WarplyTimestamp? = nil,
        couponSet: WarplyCouponSet? = nil,
        merchant: WarplyMerchant? = nil,
        discount: String? = nil
    ) {
        self.id = id
        self.couponSetUUID = couponSetUUID
        self.name = name
        self.code = code
        self.barcode = barcode
        self.status = status
        self.expiration = expiration
        self.redeemedDate = redeemedDate
        self.couponSet = couponSet
        self.merchant = merchant
        self.discount = discount
    }

    /// Decodes the wire form leniently; throws when `couponset_uuid` is missing or empty, or a field
    /// has a wrong type. `couponset_data` and `merchant_details` sent as `[]` or `{}` read as `nil`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.looseString(forKey: .id)
        couponSetUUID = try container.requiredString(forKey: .couponSetUUID)
        name = try container.looseString(forKey: .name)
        code = try container.looseString(forKey: .code)
        barcode = try container.looseString(forKey: .barcode)
        status = try container.looseInt(forKey: .status) ?? Self.activeStatus
        expiration = try container.looseTimestamp(forKey: .expiration)
        redeemedDate = try container.looseTimestamp(forKey: .redeemedDate)
        couponSet = try container.looseObject(WarplyCouponSet.self, forKey: .couponSet)
        merchant = try container.looseObject(WarplyMerchant.self, forKey: .merchant)
        discount = try container.looseString(forKey: .discount)
    }
}

/// Secrets stay out of `dump`, debuggers and `Mirror` (`SecretBearing`).
@_spi(EngageProvider) extension WarplyCoupon: SecretBearing {}
