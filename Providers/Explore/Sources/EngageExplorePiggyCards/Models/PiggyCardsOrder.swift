@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExploreGiftCards
import Foundation

/// The state of a PiggyCards order. Unknown values are kept as they are.
public struct PiggyCardsOrderStatus: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: String
    /// A status from its wire value.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Created; waiting for the Dash payment.
    public static let paymentPending = Self(rawValue: "Payment pending")
    /// Paid.
    public static let paid = Self(rawValue: "Paid")
    /// Being issued.
    public static let processing = Self(rawValue: "Processing")
    /// Delivered: the cards' secrets are present.
    public static let complete = Self(rawValue: "Complete")
    /// Cancelled by PiggyCards.
    public static let cancelled = Self(rawValue: "Cancelled")

    /// The status from the wire, matched case-insensitively to a known value. As the Dash wallet's
    /// order screen reads them, `completed` is ``complete``, and `failed` and `rejected` are
    /// ``cancelled``; any other value is kept as it is (and the order is still pending).
    public init(wireValue: String) {
        let known: [Self] = [.paymentPending, .paid, .processing, .complete, .cancelled]
        let folded = wireValue.trimmingCharacters(in: .whitespaces).lowercased()
        switch folded {
        case "completed": self = .complete
        case "failed", "rejected": self = .cancelled
        default: self = known.first { $0.rawValue.lowercased() == folded } ?? Self(rawValue: wireValue)
        }
    }

    /// Whether the order will not change any more.
    public var isTerminal: Bool { self == .complete || self == .cancelled }
    /// The wire value.
    public var description: String { rawValue }
}

/// A created order: where to pay, and the quote it was placed with.
public struct PiggyCardsOrder: Codable, Sendable, Hashable {
    /// The order id.
    public var id: String
    /// The payment URI PiggyCards gave, `dash:<address>?amount=<DASH>`: pay exactly this (a plain
    /// payment of ``dashAmount`` to ``paymentAddress``, as the Dash wallet does).
    public var payTo: String
    /// PiggyCards' message about the payment, if it sent one.
    public var payMessage: String?
    /// The amounts computed before ordering.
    public var quote: PiggyCardsQuote

    /// An order.
    public init(id: String, payTo: String, payMessage: String? = nil, quote: PiggyCardsQuote) {
        self.id = id
        self.payTo = payTo
        self.payMessage = payMessage
        self.quote = quote
    }

    /// The Dash address of ``payTo``, or `nil` when it is not a `dash:` URI with an address.
    public var paymentAddress: String? { PiggyCardsPaymentURI(payTo)?.address }
    /// The DASH amount of ``payTo`` (`amount=`), or `nil` when it has none above zero.
    public var dashAmount: Decimal? { PiggyCardsPaymentURI(payTo)?.amount }
}

/// A `dash:<address>?amount=<DASH>` payment URI, read the way the Dash wallet reads PiggyCards'
/// `payTo`: the address before `?`, the `amount` query item, which must be above zero.
package struct PiggyCardsPaymentURI: Sendable, Hashable {
    /// The Dash address.
    package var address: String
    /// The DASH amount, above zero.
    package var amount: Decimal

    /// The URI read from `text`, or `nil` when it is not `dash:<address>?…amount=<above zero>…`.
    package init?(_ text: String) {
        guard text.hasPrefix("dash:") else { return nil }
        let parts = text.dropFirst("dash:".count).split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = parts.first, !address.isEmpty, address.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }),
            parts.count == 2
        else { return nil }
        let amounts = parts[1].split(separator: "&").compactMap { item -> Decimal? in
            let pair = item.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0] == "amount" else { return nil }
            return GiftCardMoney.parse(String(pair[1]))
        }
        guard let amount = amounts.first, amount > 0 else { return nil }
        self.address = String(address)
        self.amount = amount
    }
}

/// PiggyCards' exchange rate for a fiat currency (`GET exchange-rate`).
///
/// PiggyCards sends one number, `exchange_rate`. Which way it converts is not shown by any official
/// code: the Dash wallet's model calls it "DASH per USD" and no client converts with it. It is read that
/// way here (0.025 is 0.025 DASH for one dollar, $40 for one DASH). What an order costs in DASH is
/// always the order's own ``PiggyCardsOrder/dashAmount``, never a conversion with this rate.
public struct PiggyCardsExchangeRate: Codable, Sendable, Hashable {
    /// The fiat currency, e.g. `USD`.
    public var currency: String
    /// How much DASH one unit of ``currency`` buys, as PiggyCards sends it.
    public var dashPerUnit: Decimal
    /// When PiggyCards last changed the rate, as it writes it (not parsed).
    public var modified: String?

    /// A rate, e.g. for previews and tests.
    public init(currency: String, dashPerUnit: Decimal, modified: String? = nil) {
        self.currency = currency
        self.dashPerUnit = dashPerUnit
        self.modified = modified
    }

    /// The price of one DASH in ``currency``, rounded to cents; `nil` for a rate that is not above zero.
    public var pricePerDash: Decimal? {
        guard dashPerUnit > 0 else { return nil }
        var exact = 1 / dashPerUnit
        var rounded = Decimal()
        NSDecimalRound(&rounded, &exact, 2, .plain)
        return rounded
    }
}

/// An order's state and, once `Complete`, its cards' secrets (redacted when printed).
public struct PiggyCardsOrderDetails: Sendable, Hashable, CustomStringConvertible {
    /// The order id.
    public var id: String
    /// Where it is.
    public var status: PiggyCardsOrderStatus
    /// The delivered cards' secrets: a claim code and PIN with a barcode link, or a claim link
    /// (`GiftCardSecrets.redeemURL`) for cards redeemed on the brand's site.
    public var cards: [GiftCardSecrets]
    /// The payment URI, when PiggyCards repeats it (`dash:<address>?amount=<DASH>`).
    public var payTo: String?
    /// When PiggyCards expects to deliver, as it writes it (not parsed).
    public var deliveryTime: String?

    /// Details.
    public init(
        id: String, status: PiggyCardsOrderStatus, cards: [GiftCardSecrets] = [], payTo: String? = nil, deliveryTime: String? = nil
    ) {
        self.id = id
        self.status = status
        self.cards = cards
        self.payTo = payTo
        self.deliveryTime = deliveryTime
    }

    /// Without secrets.
    public var description: String { "PiggyCardsOrderDetails(id: \(id), status: \(status), cards: \(cards))" }
}
