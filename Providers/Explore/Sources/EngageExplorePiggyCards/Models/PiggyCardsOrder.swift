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

    /// The status from the wire, matched case-insensitively to a known value.
    public init(wireValue: String) {
        let known: [Self] = [.paymentPending, .paid, .processing, .complete, .cancelled]
        self = known.first { $0.rawValue.caseInsensitiveCompare(wireValue) == .orderedSame } ?? Self(rawValue: wireValue)
    }

    /// Whether the order will not change any more.
    public var isFinal: Bool { self == .complete || self == .cancelled }
    /// The wire value.
    public var description: String { rawValue }
}

/// A created order: where to pay, and the quote it was placed with.
public struct PiggyCardsOrder: Codable, Sendable, Hashable {
    /// The order id.
    public var id: String
    /// The Dash address to pay.
    public var payTo: String
    /// The payment request (`dash:<address>?amount=<DASH>`).
    public var payMessage: String
    /// The amounts computed before ordering.
    public var quote: PiggyCardsQuote

    /// An order.
    public init(id: String, payTo: String, payMessage: String, quote: PiggyCardsQuote) {
        self.id = id
        self.payTo = payTo
        self.payMessage = payMessage
        self.quote = quote
    }
}

/// An order's state and, once `Complete`, its cards' secrets (redacted when printed).
public struct PiggyCardsOrderDetails: Sendable, Hashable, CustomStringConvertible {
    /// The order id.
    public var id: String
    /// Where it is.
    public var status: PiggyCardsOrderStatus
    /// The delivered cards' secrets.
    public var cards: [GiftCardSecrets]

    /// Details.
    public init(id: String, status: PiggyCardsOrderStatus, cards: [GiftCardSecrets] = []) {
        self.id = id
        self.status = status
        self.cards = cards
    }

    /// Without secrets.
    public var description: String { "PiggyCardsOrderDetails(id: \(id), status: \(status), cards: \(cards))" }
}
