@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation

/// A gift card as the CTX emulator holds it: the emulator's own record, written to the wire by
/// ``wireObject()`` with the keys the Dash wallet's client reads (`GiftCardResponse` in
/// `CTXSpendModels.swift`).
public struct CTXEmulatorGiftCard: Sendable, Hashable {
    /// The card (order) id.
    public var id: String
    /// `unpaid`, `paid`, `fulfilled` or `rejected`.
    public var status: String
    /// The merchant sold (not on the wire: CTX names the merchant, `merchantName`).
    public var merchantID: String
    /// The merchant's name.
    public var merchantName: String
    /// The payment's id (the Dash transaction once paid through ``CTXEmulator/markPaid(cardID:transactionID:)``).
    public var paymentID: String
    /// The `dash:` payment URI.
    public var paymentURL: String
    /// The card's face value.
    public var cardFiatAmount: Decimal
    /// What the user pays: the face value less the merchant's discount.
    public var paymentFiatAmount: Decimal
    /// The currency of both amounts.
    public var fiatCurrency: String
    /// The Dash amount to pay.
    public var cryptoAmount: Decimal
    /// The discount applied, in basis points.
    public var savingsBasisPoints: Int
    /// When it was created.
    public var created: Date
    /// The card number, once fulfilled.
    public var number: String?
    /// The PIN, once fulfilled.
    public var pin: String?
    /// The barcode image's URL, once fulfilled.
    public var barcodeURL: String?
    /// The redeem link, once fulfilled.
    public var redeemURL: String?
    /// What the redeem link asks for, once fulfilled.
    public var redeemURLChallenge: String?

    /// Whether it will not change any more.
    var isFinal: Bool { status == "fulfilled" || status == "rejected" }

    /// The JSON object the card routes answer. Amounts are decimal strings, as CTX sends them.
    func wireObject(userEmail: String) -> [String: Any] {
        var object: [String: Any] = [
            "id": id, "status": status, "paymentId": paymentID, "merchantName": merchantName,
            "paymentUrls": ["DASH.DASH": paymentURL],
            "paymentFiatAmount": GiftCardEmulatorMoney.cents(paymentFiatAmount), "paymentFiatCurrency": fiatCurrency,
            "cardFiatAmount": GiftCardEmulatorMoney.cents(cardFiatAmount), "cardFiatCurrency": fiatCurrency,
            "paymentCryptoAmount": GiftCardEmulatorMoney.plain(cryptoAmount), "paymentCryptoCurrency": "DASH",
            "paymentCryptoNetwork": "DASH", "percentDiscount": GiftCardEmulatorMoney.cents(Decimal(savingsBasisPoints) / 100),
            "redeemType": "barcode", "userEmail": userEmail, "created": created.formatted(.iso8601),
        ]
        let secrets: [(String, String?)] = [
            ("number", number), ("pin", pin), ("barcodeUrl", barcodeURL), ("redeemUrl", redeemURL),
            ("redeemUrlChallenge", redeemURLChallenge),
        ]
        for (key, value) in secrets {
            if let value { object[key] = value }
        }
        return object
    }
}

/// A card the emulator sold, with what drives its status.
struct CTXEmulatorCard: Sendable {
    var card: CTXEmulatorGiftCard
    var owner: String
    var createdAt: Date
    var paidAt: Date?
    var forcedRejection = false
}

/// The CTX emulator's mutable state, behind its lock.
struct CTXEmulatorState {
    var merchants: [String: CTXEmulatorMerchant]
    var generator: SeededGenerator
    /// Outstanding login codes by lowercased e-mail: the code and when it was issued.
    var loginCodes: [String: (code: String, issuedAt: Date)] = [:]
    /// Users who verified at least once.
    var users: Set<String> = []
    /// Unused refresh tokens → their user.
    var refreshTokens: [String: String] = [:]
    var cards: [String: CTXEmulatorCard] = [:]
    var cardOrder: [String] = []
    var loginCount = 0
    var refreshCount = 0
    var purchaseCount = 0

    init(merchants: [CTXEmulatorMerchant], seed: UInt64) {
        self.merchants = Dictionary(merchants.map { ($0.merchant.id, $0) }, uniquingKeysWith: { first, _ in first })
        generator = SeededGenerator(seed: seed, stream: "ctx/state")
    }

    /// Moves the card `id` along its life at `now`: paid after `autoPayDelay` (when set), then
    /// fulfilled (or rejected) `fulfillmentDelay` after payment.
    mutating func advance(_ id: String, now: Date, configuration: CTXEmulator.Configuration) {
        guard var entry = cards[id], !entry.card.isFinal else { return }
        if entry.forcedRejection {
            entry.card.status = "rejected"
        } else {
            if entry.paidAt == nil, let delay = configuration.autoPayDelay, now >= entry.createdAt.adding(delay) {
                entry.paidAt = entry.createdAt.adding(delay)
                entry.card.status = "paid"
            }
            if let paidAt = entry.paidAt, now >= paidAt.adding(configuration.fulfillmentDelay) {
                if merchants[entry.card.merchantID]?.rejectsAfterPayment ?? false {
                    entry.card.status = "rejected"
                } else {
                    entry.card.status = "fulfilled"
                    entry.card.number = "6006" + generator.nextDigits(12)
                    entry.card.pin = generator.nextDigits(8)
                    entry.card.barcodeURL = "https://spend.ctx.com/barcodes/\(generator.nextHex(byteCount: 12)).png"
                    entry.card.redeemURL = "https://spend.ctx.com/redeem/\(generator.nextHex(byteCount: 12))"
                    entry.card.redeemURLChallenge = generator.nextDigits(4)
                }
            }
        }
        cards[id] = entry
    }
}
