import Foundation

/// How many coupons of a coupon set are left (`coupon` / `availability`, in the `MAPP_COUPON` section).
///
/// Wire form: `{ "couponset_uuid": "cs-1", "availability": "12" }`. Both fields are required.
/// Campaigns whose coupon set has availability 0 are not shown.
public struct WarplyCouponAvailability: Codable, Sendable, Hashable, Identifiable {
    /// The coupon set (`couponset_uuid`).
    public var couponSetUUID: String
    /// The coupons left (`availability`).
    public var availability: Int

    /// The availability's identity: its coupon set.
    public var id: String { couponSetUUID }

    enum CodingKeys: String, CodingKey {
        case couponSetUUID = "couponset_uuid"
        case availability
    }

    /// The availability of one coupon set.
    public init(couponSetUUID: String, availability: Int) {
        self.couponSetUUID = couponSetUUID
        self.availability = availability
    }

    /// Decodes the wire form leniently; throws when either field is missing or has a wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        couponSetUUID = try container.requiredString(forKey: .couponSetUUID)
        availability = try container.requiredInt(forKey: .availability)
    }
}
