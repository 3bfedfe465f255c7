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
    public var isTerminal: Bool { self == .fulfilled || self == .rejected }
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

/// A CTX gift card (`POST gift-cards`, `GET gift-cards/{id}`, `GET gift-cards?txid=`), read from the
/// keys the Dash wallet's official client reads (`GiftCardResponse` in dashwallet-ios'
/// `CTXSpendModels.swift`): `paymentFiatAmount`/`paymentFiatCurrency` for what the user pays,
/// `cardFiatAmount`/`cardFiatCurrency` for the card's face value, `paymentCryptoAmount`/
/// `paymentCryptoCurrency` for the Dash amount, `merchantName`, `paymentId` and `paymentUrls`.
/// Amounts arrive as decimal strings (numbers are read too). Its secrets (`number`, `pin`,
/// `barcodeUrl`, `redeemUrl`, `redeemUrlChallenge`) are in ``secrets`` and never shown when the value
/// is printed.
public struct CTXGiftCard: Codable, Sendable, Hashable {
    /// The card id (the order id the wallet keeps).
    public var id: String
    /// Where it is in its life.
    public var status: CTXGiftCardStatus
    /// The CTX merchant id. CTX's answer does not carry it: the client sets it from the purchase it
    /// made (`nil` for a card read by id or transaction in another launch); ``merchantName`` is CTX's.
    public var merchantID: String?
    /// The merchant's name, as CTX names it on the card.
    public var merchantName: String?
    /// The payment's id.
    public var paymentID: String?
    /// Payment URIs by currency (for example `"DASH.DASH": "dash:X…?amount=0.3"`): the wallet pays the
    /// first one.
    public var paymentURLs: [String: String]?
    /// What the user pays, in ``fiatCurrency`` (the face value less the merchant's discount).
    public var fiatAmount: Decimal?
    /// The currency of ``fiatAmount``.
    public var fiatCurrency: String?
    /// The card's face value, in ``cardFiatCurrency``.
    public var cardFiatAmount: Decimal?
    /// The currency of the card's face value.
    public var cardFiatCurrency: String?
    /// The Dash amount to pay, if CTX said (the payment URI's amount is the one that counts).
    public var cryptoAmount: Decimal?
    /// The currency of ``cryptoAmount`` (`DASH`).
    public var cryptoCurrency: String?
    /// Number, PIN, barcode, redeem link and its challenge (empty until `fulfilled`).
    public var secrets: GiftCardSecrets

    /// A card.
    public init(
        id: String, status: CTXGiftCardStatus, merchantID: String? = nil, merchantName: String? = nil, paymentID: String? = nil,
        paymentURLs: [String: String]? = nil, fiatAmount: Decimal? = nil, fiatCurrency: String? = nil, cardFiatAmount: Decimal? = nil,
        cardFiatCurrency: String? = nil, cryptoAmount: Decimal? = nil, cryptoCurrency: String? = nil,
        secrets: GiftCardSecrets = GiftCardSecrets()
    ) {
        self.id = id
        self.status = status
        self.merchantID = merchantID
        self.merchantName = merchantName
        self.paymentID = paymentID
        self.paymentURLs = paymentURLs
        self.fiatAmount = fiatAmount
        self.fiatCurrency = fiatCurrency
        self.cardFiatAmount = cardFiatAmount
        self.cardFiatCurrency = cardFiatCurrency
        self.cryptoAmount = cryptoAmount
        self.cryptoCurrency = cryptoCurrency
        self.secrets = secrets
    }

    /// The official keys, and `merchantId`, which only this SDK writes (a card it encoded itself).
    enum CodingKeys: String, CodingKey {
        case id, status, paymentId, paymentUrls, merchantName, merchantId
        case paymentFiatAmount, paymentFiatCurrency, cardFiatAmount, cardFiatCurrency, paymentCryptoAmount, paymentCryptoCurrency
        case number, pin, barcodeUrl, redeemUrl, redeemUrlChallenge
    }

    /// Reads the card; amounts may be decimal strings (as CTX sends them) or numbers.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let text = try? container.decode(String.self, forKey: .id) {
            id = text
        } else {
            id = String(try container.decode(Int.self, forKey: .id))
        }
        status = try container.decode(CTXGiftCardStatus.self, forKey: .status)
        merchantID = try container.decodeIfPresent(String.self, forKey: .merchantId)
        merchantName = try container.decodeIfPresent(String.self, forKey: .merchantName)
        paymentID = try container.decodeIfPresent(String.self, forKey: .paymentId)
        paymentURLs = try container.decodeIfPresent([String: String].self, forKey: .paymentUrls)
        fiatAmount = try container.lenientDecimal(.paymentFiatAmount)
        fiatCurrency = try container.decodeIfPresent(String.self, forKey: .paymentFiatCurrency)
        cardFiatAmount = try container.lenientDecimal(.cardFiatAmount)
        cardFiatCurrency = try container.decodeIfPresent(String.self, forKey: .cardFiatCurrency)
        cryptoAmount = try container.lenientDecimal(.paymentCryptoAmount)
        cryptoCurrency = try container.decodeIfPresent(String.self, forKey: .paymentCryptoCurrency)
        secrets = GiftCardSecrets(
            number: try container.decodeIfPresent(String.self, forKey: .number),
            pin: try container.decodeIfPresent(String.self, forKey: .pin),
            barcodeURL: try container.decodeIfPresent(String.self, forKey: .barcodeUrl),
            redeemURL: try container.decodeIfPresent(String.self, forKey: .redeemUrl),
            redeemURLChallenge: try container.decodeIfPresent(String.self, forKey: .redeemUrlChallenge)
        )
    }

    /// Writes the official keys (amounts as decimal strings), and `merchantId` when known.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(status, forKey: .status)
        try container.encodeIfPresent(merchantID, forKey: .merchantId)
        try container.encodeIfPresent(merchantName, forKey: .merchantName)
        try container.encodeIfPresent(paymentID, forKey: .paymentId)
        try container.encodeIfPresent(paymentURLs, forKey: .paymentUrls)
        try container.encodeIfPresent(fiatAmount.map(GiftCardMoney.wireString), forKey: .paymentFiatAmount)
        try container.encodeIfPresent(fiatCurrency, forKey: .paymentFiatCurrency)
        try container.encodeIfPresent(cardFiatAmount.map(GiftCardMoney.wireString), forKey: .cardFiatAmount)
        try container.encodeIfPresent(cardFiatCurrency, forKey: .cardFiatCurrency)
        try container.encodeIfPresent(cryptoAmount.map(GiftCardMoney.plainString), forKey: .paymentCryptoAmount)
        try container.encodeIfPresent(cryptoCurrency, forKey: .paymentCryptoCurrency)
        try container.encodeIfPresent(secrets.number, forKey: .number)
        try container.encodeIfPresent(secrets.pin, forKey: .pin)
        try container.encodeIfPresent(secrets.barcodeURL, forKey: .barcodeUrl)
        try container.encodeIfPresent(secrets.redeemURL, forKey: .redeemUrl)
        try container.encodeIfPresent(secrets.redeemURLChallenge, forKey: .redeemUrlChallenge)
    }

    /// The card with its secrets redacted.
    public var description: String {
        "CTXGiftCard(id: \(id), status: \(status), merchant: \(merchantName ?? merchantID ?? "nil"), cardFiatAmount: "
            + "\(cardFiatAmount.map(GiftCardMoney.plainString) ?? "nil") \(cardFiatCurrency ?? ""), fiatAmount: "
            + "\(fiatAmount.map(GiftCardMoney.plainString) ?? "nil") \(fiatCurrency ?? ""), secrets: \(secrets))"
    }

    /// A mirror without secret values.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "id": id, "status": status.rawValue, "merchantID": merchantID as Any, "merchantName": merchantName as Any,
                "paymentID": paymentID as Any, "fiatAmount": fiatAmount as Any, "fiatCurrency": fiatCurrency as Any,
                "cardFiatAmount": cardFiatAmount as Any, "cardFiatCurrency": cardFiatCurrency as Any, "secrets": secrets,
            ],
            displayStyle: .struct
        )
    }
}

/// Secrets stay out of `dump`, debuggers and `Mirror` (`SecretBearing`).
@_spi(EngageProvider) extension CTXGiftCard: SecretBearing {}
