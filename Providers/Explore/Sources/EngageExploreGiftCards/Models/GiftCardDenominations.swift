@_spi(EngageProvider) import EngageCore
import Foundation

/// The amounts a gift card can be bought for: a list of fixed values, or any amount in whole cents
/// between a minimum and a maximum.
public enum GiftCardDenominations: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Only these amounts, in the merchant's currency.
    case fixed([Decimal])
    /// Any amount from `minimum` to `maximum` inclusive, in whole cents.
    case range(minimum: Decimal, maximum: Decimal)

    /// `fixed 25, 50, 100` or `25 to 500`.
    public var description: String {
        switch self {
        case let .fixed(values): "fixed " + values.map { GiftCardMoney.plainString($0) }.joined(separator: ", ")
        case let .range(minimum, maximum): "\(GiftCardMoney.plainString(minimum)) to \(GiftCardMoney.plainString(maximum))"
        }
    }

    /// Checks `amount` against these denominations before anything is sent.
    ///
    /// - Throws: `EngageError(.exploreGiftCardAmountInvalid)` whose `underlyingError` is a
    ///   ``GiftCardAmountViolation`` naming the reason and the limits.
    public func validate(_ amount: Decimal, providerID: ProviderID = .explore) throws(EngageError) {
        if let reason = violation(of: amount) {
            throw GiftCardAmountViolation(amount: amount, denominations: self, reason: reason).engageError(providerID: providerID)
        }
    }

    /// Why `amount` is not accepted, or `nil` when it is.
    public func violation(of amount: Decimal) -> GiftCardAmountViolation.Reason? {
        guard amount > 0, let minor = GiftCardMoney.minorUnits(of: amount) else { return .notWholeCents }
        switch self {
        case let .fixed(values):
            return values.contains { GiftCardMoney.minorUnits(of: $0) == minor } ? nil : .notOffered
        case let .range(minimum, maximum):
            if amount < minimum { return .belowMinimum }
            if amount > maximum { return .aboveMaximum }
            return nil
        }
    }
}

/// Why an amount was refused, with the merchant's limits: the `underlyingError` of an
/// `EngageError(.exploreGiftCardAmountInvalid)`.
public struct GiftCardAmountViolation: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the amount.
    public enum Reason: String, Sendable, Hashable, Codable {
        /// Below the minimum of a range.
        case belowMinimum
        /// Above the maximum of a range (or the provider's largest order).
        case aboveMaximum
        /// Not one of the fixed values.
        case notOffered
        /// Zero, negative, or with fractions of a cent.
        case notWholeCents
    }

    /// The amount asked for.
    public var amount: Decimal
    /// What the merchant sells.
    public var denominations: GiftCardDenominations
    /// Why it was refused.
    public var reason: Reason

    /// A violation.
    public init(amount: Decimal, denominations: GiftCardDenominations, reason: Reason) {
        self.amount = amount
        self.denominations = denominations
        self.reason = reason
    }

    /// The smallest amount accepted.
    public var minimum: Decimal? {
        switch denominations {
        case let .fixed(values): values.min()
        case let .range(minimum, _): minimum
        }
    }

    /// The largest amount accepted.
    public var maximum: Decimal? {
        switch denominations {
        case let .fixed(values): values.max()
        case let .range(_, maximum): maximum
        }
    }

    /// A sentence naming the amount, the reason and the limits.
    public var description: String {
        let shown = GiftCardMoney.plainString(amount)
        switch reason {
        case .belowMinimum:
            return
                "The amount \(shown) is below the minimum of \(minimum.map(GiftCardMoney.plainString) ?? "?") (accepted: \(denominations))."
        case .aboveMaximum:
            return
                "The amount \(shown) is above the maximum of \(maximum.map(GiftCardMoney.plainString) ?? "?") (accepted: \(denominations))."
        case .notOffered: return "The amount \(shown) is not one of the card's values (accepted: \(denominations))."
        case .notWholeCents: return "The amount \(shown) must be positive and in whole cents (accepted: \(denominations))."
        }
    }

    /// The `EngageError` carrying this violation.
    public func engageError(providerID: ProviderID = .explore) -> EngageError {
        EngageError(
            .exploreGiftCardAmountInvalid, description, providerID: providerID,
            recoverySuggestion: "Choose an amount the merchant accepts: \(denominations).", underlyingError: self
        )
    }
}
