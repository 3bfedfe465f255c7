@_spi(EngageProvider) import EngageCore
import Foundation

/// A payment card saved to the user's account (`cards` / `get_cards`, in the `MAPP_CARDS` section).
///
/// Wire form:
/// ```json
/// { "card_token": "tok-1", "card_number": "**** **** **** 1234", "card_issuer": "VISA",
///   "cardholder": "MARIA PAPADOPOULOU", "expiration_month": "09", "expiration_year": "2028", "default": "true" }
/// ```
/// The server only ever returns masked numbers. Only `card_token` is required. `description` prints
/// only the masked number.
public struct WarplyCard: Codable, Sendable, Hashable, Identifiable {
    /// The card's token (`card_token`): its id, used to delete it.
    public var token: String
    /// The masked card number (`card_number`), e.g. `**** **** **** 1234`.
    public var maskedNumber: String?
    /// The issuer or scheme (`card_issuer`), e.g. `VISA`.
    public var issuer: String?
    /// The cardholder's name (`cardholder`). Personal: never log it.
    public var holder: String?
    /// The expiry month (`expiration_month`), as sent, e.g. `09`.
    public var expirationMonth: String?
    /// The expiry year (`expiration_year`), as sent, e.g. `2028`.
    public var expirationYear: String?
    /// Whether this is the user's default card (`default`).
    public var isDefault: Bool

    /// The card's identity: its token.
    public var id: String { token }

    /// Only the number's last four digits (it is masked again here, so a full number never prints).
    public var description: String {
        "WarplyCard(\(maskedNumber.map(Self.mask) ?? "nil"))"
    }

    /// The text shown for a number whose last digits must not show either.
    public static let fullyMasked = "**** **** **** ****"

    /// `number` with only its last four digits kept, as `**** **** **** 1234`.
    ///
    /// Separators and other non-digits are ignored. A number with fewer than 8 digits is masked
    /// entirely (``fullyMasked``), except a number already masked this way (`*`s and separators
    /// followed by four digits), which is returned in the same canonical form, so masking is idempotent.
    package static func mask(_ number: String) -> String {
        let digits = number.filter { $0.isASCII && $0.isWholeNumber }
        if digits.count == 4, number.hasSuffix(digits), number.contains("*"),
            number.dropLast(4).allSatisfy({ $0 == "*" || $0 == " " || $0 == "-" })
        {
            return "**** **** **** " + digits
        }
        guard digits.count >= 8 else { return fullyMasked }
        return "**** **** **** " + digits.suffix(4)
    }

    enum CodingKeys: String, CodingKey {
        case token = "card_token"
        case maskedNumber = "card_number"
        case issuer = "card_issuer"
        case holder = "cardholder"
        case expirationMonth = "expiration_month"
        case expirationYear = "expiration_year"
        case isDefault = "default"
    }

    /// A saved card; every field but the token is optional. Give the number masked, as Warply sends it
    /// (`**** **** **** 1234`); ``description`` shows only its last four digits whatever it holds.
    public init(
        token: String,
        maskedNumber: String? = nil,
        issuer: String? = nil,
        holder: String? = nil,
        expirationMonth: String? = nil,
        expirationYear: String? = nil,
        isDefault: Bool = false
    ) {
        self.token = token
        self.maskedNumber = maskedNumber
        self.issuer = issuer
        self.holder = holder
        self.expirationMonth = expirationMonth
        self.expirationYear = expirationYear
        self.isDefault = isDefault
    }

    /// Decodes the wire form leniently; throws when `card_token` is missing or empty, or a field has a
    /// wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        token = try container.requiredString(forKey: .token)
        maskedNumber = try container.looseString(forKey: .maskedNumber)
        issuer = try container.looseString(forKey: .issuer)
        holder = try container.looseString(forKey: .holder)
        expirationMonth = try container.looseString(forKey: .expirationMonth)
        expirationYear = try container.looseString(forKey: .expirationYear)
        isDefault = try container.looseBool(forKey: .isDefault) ?? false
    }
}

/// Secrets stay out of `dump`, debuggers and `Mirror` (`SecretBearing`).
@_spi(EngageProvider) extension WarplyCard: SecretBearing {}
