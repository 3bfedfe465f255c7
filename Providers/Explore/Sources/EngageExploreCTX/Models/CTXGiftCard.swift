@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExploreGiftCards
import Foundation

/// The state of a CTX gift card: `unpaid` → `paid` → `fulfilled`, or `rejected`. Unknown values are
/// kept as they are.
public struct CTXGiftCardStatus: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: String
    /// A status from its wire value.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Created; waiting for the Dash payment.
    public static let unpaid = Self(rawValue: "unpaid")
    /// Paid; the card is being issued.
    public static let paid = Self(rawValue: "paid")
    /// Issued: the secrets are present.
    public static let fulfilled = Self(rawValue: "fulfilled")
    /// Refused by CTX or the merchant.
    public static let rejected = Self(rawValue: "rejected")

    /// Whether the card will not change any more.
    public var isFinal: Bool { self == .fulfilled || self == .rejected }
    /// The wire value.
    public var description: String { rawValue }

    /// Reads the string, case-insensitively.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self).lowercased()
    }

    /// Writes the string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// A CTX gift card (`POST gift-cards`, `GET gift-cards/{id}`). Its secrets (`number`, `pin`,
/// `barcodeUrl`, `redeemUrl`) are in ``secrets`` and never shown when the value is printed.
public struct CTXGiftCard: Codable, Sendable, Hashable, SecretBearing {
    /// The card id.
    public var id: String
    /// Where it is in its life.
    public var status: CTXGiftCardStatus
    /// The merchant, if CTX said.
    public var merchantID: String?
    /// The payment's id.
    public var paymentID: String?
    /// Payment URIs by currency (for example `"DASH.DASH": "dash:X…?amount=0.3"`).
    public var paymentURLs: [String: String]?
    /// The face value asked for.
    public var fiatAmount: Decimal?
    /// The currency of the face value.
    public var fiatCurrency: String?
    /// The face value issued, once known.
    public var cardFiatAmount: Decimal?
    /// The Dash amount to pay, if CTX said.
    public var cryptoAmount: Decimal?
    /// Number, PIN, barcode and redeem links (empty until `fulfilled`).
    public var secrets: GiftCardSecrets

    /// A card.
    public init(
        id: String, status: CTXGiftCardStatus, merchantID: String? = nil, paymentID: String? = nil, paymentURLs: [String: String]? = nil,
        fiatAmount: Decimal? = nil, fiatCurrency: String? = nil, cardFiatAmount: Decimal? = nil, cryptoAmount: Decimal? = nil,
        secrets: GiftCardSecrets = GiftCardSecrets()
    ) {
        self.id = id
        self.status = status
        self.merchantID = merchantID
        self.paymentID = paymentID
        self.paymentURLs = paymentURLs
        self.fiatAmount = fiatAmount
        self.fiatCurrency = fiatCurrency
        self.cardFiatAmount = cardFiatAmount
        self.cryptoAmount = cryptoAmount
        self.secrets = secrets
    }

    enum CodingKeys: String, CodingKey {
        case id, status, merchantId, paymentId, paymentUrls, fiatAmount, fiatCurrency, cardFiatAmount, cryptoAmount
        case number, pin, barcodeUrl, redeemUrl
    }

    /// Reads the card; amounts may be numbers or strings.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let text = try? container.decode(String.self, forKey: .id) {
            id = text
        } else {
            id = String(try container.decode(Int.self, forKey: .id))
        }
        status = try container.decode(CTXGiftCardStatus.self, forKey: .status)
        merchantID = try container.decodeIfPresent(String.self, forKey: .merchantId)
        paymentID = try container.decodeIfPresent(String.self, forKey: .paymentId)
        paymentURLs = try container.decodeIfPresent([String: String].self, forKey: .paymentUrls)
        fiatAmount = try container.lenientDecimal(.fiatAmount)
        fiatCurrency = try container.decodeIfPresent(String.self, forKey: .fiatCurrency)
        cardFiatAmount = try container.lenientDecimal(.cardFiatAmount)
        cryptoAmount = try container.lenientDecimal(.cryptoAmount)
        secrets = GiftCardSecrets(
            number: try container.decodeIfPresent(String.self, forKey: .number),
            pin: try container.decodeIfPresent(String.self, forKey: .pin),
            barcodeURL: try container.decodeIfPresent(String.self, forKey: .barcodeUrl),
            redeemURL: try container.decodeIfPresent(String.self, forKey: .redeemUrl)
        )
    }

    /// Writes the wire form (amounts as decimal strings).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(status, forKey: .status)
        try container.encodeIfPresent(merchantID, forKey: .merchantId)
        try container.encodeIfPresent(paymentID, forKey: .paymentId)
        try container.encodeIfPresent(paymentURLs, forKey: .paymentUrls)
        try container.encodeIfPresent(fiatAmount.map(GiftCardMoney.wireString), forKey: .fiatAmount)
        try container.encodeIfPresent(fiatCurrency, forKey: .fiatCurrency)
        try container.encodeIfPresent(cardFiatAmount.map(GiftCardMoney.wireString), forKey: .cardFiatAmount)
        try container.encodeIfPresent(cryptoAmount.map(GiftCardMoney.plainString), forKey: .cryptoAmount)
        try container.encodeIfPresent(secrets.number, forKey: .number)
        try container.encodeIfPresent(secrets.pin, forKey: .pin)
        try container.encodeIfPresent(secrets.barcodeURL, forKey: .barcodeUrl)
        try container.encodeIfPresent(secrets.redeemURL, forKey: .redeemUrl)
    }

    /// The card with its secrets redacted.
    public var description: String {
        "CTXGiftCard(id: \(id), status: \(status), merchantID: \(merchantID ?? "nil"), fiatAmount: "
            + "\(fiatAmount.map(GiftCardMoney.plainString) ?? "nil") \(fiatCurrency ?? ""), secrets: \(secrets))"
    }

    /// A mirror without secret values.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "id": id, "status": status.rawValue, "merchantID": merchantID as Any, "paymentID": paymentID as Any,
                "fiatAmount": fiatAmount as Any, "fiatCurrency": fiatCurrency as Any, "secrets": secrets,
            ],
            displayStyle: .struct
        )
    }
}
