@_spi(EngageProvider) import EngageCore

/// One user of the emulated backend: created on first login from the email, then changed by
/// redemptions and card operations.
struct WarplyEmulatorUser: Sendable {
    /// The profile (`user_points` goes down with every redemption).
    var profile: ServedProfile
    /// The user's coupons, active and redeemed, in no particular order (as the backend sends them).
    var coupons: [WarplyEmulatorCoupon]
    /// The stored cards (masked numbers only).
    var cards: [ServedCard] = []
    /// The transaction history, dates out of order.
    var transactions: [ServedTransaction]
    /// The points history, dates out of order; redemptions append negative entries.
    var pointsHistory: [ServedPointsEntry]
    /// The session UUIDs of the user's personalized campaigns.
    var personalizedCampaignUUIDs: [String]
    /// The market pass barcode.
    var marketPassBarcode: String
    /// The market pass's count of unseen offers.
    var newOffers: Int
    /// Coupons acquired through `coupon`/`redeem` (drives their codes).
    var redemptionCount = 0
    /// Cards added (drives their tokens).
    var cardCount = 0
}

/// A coupon as the emulator stores it; rendered with its coupon set and merchant in the request's
/// language by ``WarplyCatalogue/coupon(_:language:)``.
struct WarplyEmulatorCoupon: Sendable, Hashable {
    var id: String
    var couponSetUUID: String
    var code: String
    var barcode: String
    /// `ServedCoupon.activeStatus` or `ServedCoupon.redeemedStatus`.
    var status: Int
    var expiration: ServedTimestamp
    var redeemedDate: ServedTimestamp?
}

extension WarplyCatalogue {
    /// `coupon` as the wire model, with its coupon set, merchant and discount in `language`.
    func coupon(_ coupon: WarplyEmulatorCoupon, language: ServedLanguage) -> ServedCoupon {
        let set = couponSet(uuid: coupon.couponSetUUID, language: language)
        let merchant = set?.merchantUUID.flatMap { self.merchant(uuid: $0, language: language) }
        return ServedCoupon(
            id: coupon.id, couponSetUUID: coupon.couponSetUUID, name: set?.name, code: coupon.code, barcode: coupon.barcode,
            status: coupon.status, expiration: coupon.expiration, redeemedDate: coupon.redeemedDate, couponSet: set,
            merchant: merchant, discount: set?.discount
        )
    }

    /// Whether `coupon` belongs to a supermarket coupon set.
    func isSupermarket(_ coupon: WarplyEmulatorCoupon) -> Bool {
        couponSet(uuid: coupon.couponSetUUID, language: .greek)?.couponSetType == Self.supermarketCouponSetType
    }
}
