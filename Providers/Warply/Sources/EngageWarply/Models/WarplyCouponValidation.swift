@_spi(EngageProvider) import EngageCore
import Foundation

/// The answer of a coupon validation (`coupon` / `validate`, in the `MAPP_COUPON` section).
///
/// Wire form: `{ "valid": "true", "coupon": "FUEL-7Q2X", "message": "Το κουπόνι είναι έγκυρο",
/// "couponset_uuid": "cs-1" }`. `valid` is required. `description` masks the code.
public struct WarplyCouponValidation: Codable, Sendable, Hashable {
    /// Whether the coupon can be redeemed (`valid`).
    public var isValid: Bool
    /// The coupon's code (`coupon`). Secret: never log it.
    public var couponCode: String?
    /// The server's explanation (`message`), e.g. why the coupon is not valid.
    public var message: String?
    /// The coupon set (`couponset_uuid`).
    public var couponSetUUID: String?

    /// A summary with the code masked (all but its last two characters).
    public var description: String {
        "WarplyCouponValidation(isValid: \(isValid), couponCode: \(WarplyModelSupport.show(couponCode.map(WarplyModelSupport.maskKeepingLastTwo))), "
            + "message: \(WarplyModelSupport.show(message)), couponSetUUID: \(WarplyModelSupport.show(couponSetUUID)))"
    }

    enum CodingKeys: String, CodingKey {
        case isValid = "valid"
        case couponCode = "coupon"
        case message
        case couponSetUUID = "couponset_uuid"
    }

    /// A validation answer.
    public init(isValid: Bool, couponCode: String? = nil, message: String? = nil, couponSetUUID: String? = nil) {
        self.isValid = isValid
        self.couponCode = couponCode
        self.message = message
        self.couponSetUUID = couponSetUUID
    }

    /// Decodes the wire form leniently; throws when `valid` is missing or not a flag, or a field has a
    /// wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        isValid = try container.requiredBool(forKey: .isValid)
        couponCode = try container.looseString(forKey: .couponCode)
        message = try container.looseString(forKey: .message)
        couponSetUUID = try container.looseString(forKey: .couponSetUUID)
    }
}

/// Secrets stay out of `dump`, debuggers and `Mirror` (`SecretBearing`).
@_spi(EngageProvider) extension WarplyCouponValidation: SecretBearing {}
