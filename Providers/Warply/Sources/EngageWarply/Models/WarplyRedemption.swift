@_spi(EngageProvider) import EngageCore
import Foundation

/// The answer of a coupon redemption (`coupon` / `redeem`, in the `MAPP_COUPON` section).
///
/// Wire form: `{ "coupon": "FUEL-7Q2X", "couponset_uuid": "cs-1", "redeemed_date": "2026-03-01 18:22:10",
/// "transaction_id": "t-1" }`. No field is required. `description` masks the code.
public struct WarplyRedemption: Codable, Sendable, Hashable {
    /// The redeemed coupon's code (`coupon`). Secret: never log it.
    public var couponCode: String?
    /// The coupon set (`couponset_uuid`).
    public var couponSetUUID: String?
    /// When the coupon was redeemed (`redeemed_date`).
    public var redeemedAt: WarplyTimestamp?
    /// The transaction the redemption was recorded as (`transaction_id`).
    public var transactionID: String?

    /// A summary with the code masked (all but its last two characters).
    public var description: String {
        "WarplyRedemption(couponCode: \(WarplyModelSupport.show(couponCode.map(WarplyModelSupport.maskKeepingLastTwo))), "
            + "couponSetUUID: \(WarplyModelSupport.show(couponSetUUID)), redeemedAt: \(WarplyModelSupport.show(redeemedAt)), "
            + "transactionID: \(WarplyModelSupport.show(transactionID)))"
    }

    enum CodingKeys: String, CodingKey {
        case couponCode = "coupon"
        case couponSetUUID = "couponset_uuid"
        case redeemedAt = "redeemed_date"
        case transactionID = "transaction_id"
    }

    /// A redemption answer.
    public init(couponCode: String? = nil, couponSetUUID: String? = nil, redeemedAt: WarplyTimestamp? = nil, transactionID: String? = nil) {
        self.couponCode = couponCode
        self.couponSetUUID = couponSetUUID
        self.redeemedAt = redeemedAt
        self.transactionID = transactionID
    }

    /// Decodes the wire form leniently; throws when a field has a wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        couponCode = try container.looseString(forKey: .couponCode)
        couponSetUUID = try container.looseString(forKey: .couponSetUUID)
        redeemedAt = try container.looseTimestamp(forKey: .redeemedAt)
        transactionID = try container.looseString(forKey: .transactionID)
    }
}

/// Secrets stay out of `dump`, debuggers and `Mirror` (`SecretBearing`).
@_spi(EngageProvider) extension WarplyRedemption: SecretBearing {}
