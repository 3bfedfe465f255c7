import Foundation

/// The user's redeemed supermarket coupons and what they saved (`coupon` / `get_redeemed_sm_history`,
/// in the `MAPP_COUPON` section).
///
/// Wire form: `{ "total_redeemed_value": "23.50", "redeemed_coupon_list": [ { "couponset_uuid": "cs-1", … } ] }`.
/// Both fields may be absent (0 and an empty list).
public struct WarplyRedeemedSupermarketHistory: Codable, Sendable, Hashable {
    /// The total value of the redeemed coupons, in euros (`total_redeemed_value`).
    public var totalRedeemedValue: Decimal
    /// The redeemed coupons (`redeemed_coupon_list`).
    public var redeemedCoupons: [WarplyCoupon]

    enum CodingKeys: String, CodingKey {
        case totalRedeemedValue = "total_redeemed_value"
        case redeemedCoupons = "redeemed_coupon_list"
    }

    /// A redemption history.
    public init(totalRedeemedValue: Decimal = 0, redeemedCoupons: [WarplyCoupon] = []) {
        self.totalRedeemedValue = totalRedeemedValue
        self.redeemedCoupons = redeemedCoupons
    }

    /// Decodes the wire form leniently; throws when a field has a wrong type or a coupon is invalid.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        totalRedeemedValue = try container.looseDecimal(forKey: .totalRedeemedValue) ?? 0
        redeemedCoupons = try container.looseArray(WarplyCoupon.self, forKey: .redeemedCoupons)
    }
}
