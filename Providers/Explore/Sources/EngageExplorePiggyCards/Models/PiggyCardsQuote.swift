@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExploreGiftCards
import Foundation

/// What an order costs, computed in integer minor units (cents) and basis points, before ordering, the
/// way the Dash wallet prices a PiggyCards card: its 1.5 % service fee is taken off the discount, in
/// percentage points (`max(0, discount − 1.5) / 100` in the wallet's `DashSpendPayViewModel.swift`),
/// so a 15 % card of $100 costs $86.50.
///
/// - face = denomination × quantity (at most 2 500),
/// - discount = face × `discount_percentage` (basis points), rounded half away from zero,
/// - paid discount = face × max(0, `discount_percentage` − 150 basis points), rounded the same way,
/// - service fee = discount − paid discount (the 1.5 points the wallet keeps),
/// - total = face − paid discount = face − discount + service fee (what the user pays, in the card
///   currency).
public struct PiggyCardsQuote: Codable, Sendable, Hashable {
    /// The product.
    public var productID: String
    /// The card currency.
    public var currency: String
    /// The face value of each card.
    public var denomination: Decimal
    /// How many cards.
    public var quantity: Int
    /// Face value of the order, cents.
    public var faceValueMinorUnits: Int
    /// Discount, cents.
    public var discountMinorUnits: Int
    /// Service fee, cents.
    public var serviceFeeMinorUnits: Int
    /// What is paid, cents.
    public var totalMinorUnits: Int

    /// The total as a decimal amount.
    public var total: Decimal { GiftCardMoney.amount(minorUnits: totalMinorUnits) }
    /// The service fee as a decimal amount.
    public var serviceFee: Decimal { GiftCardMoney.amount(minorUnits: serviceFeeMinorUnits) }

    /// The quote for `quantity` cards of `denomination` of `product`.
    ///
    /// - Throws: `.exploreGiftCardAmountInvalid` when the denomination is not one the product sells
    ///   or the order's face value is above 2 500; `.invalidInput` for a quantity outside 1 to 100 or a
    ///   product whose discount is outside 0 to 100 %.
    public init(product: PiggyCardsProduct, denomination: Decimal, quantity: Int = 1) throws(EngageError) {
        guard quantity >= 1, quantity <= 100 else {
            throw EngageError(.invalidInput, "The quantity must be from 1 to 100.", providerID: .explore)
        }
        guard (0...10_000).contains(product.discountBasisPoints) else {
            throw EngageError(
                .invalidInput, "The product's discount must be from 0 to 100 % (10 000 basis points).", providerID: .explore)
        }
        let denominations = product.denominations ?? .fixed([])
        try denominations.validate(denomination)
        guard let each = GiftCardMoney.minorUnits(of: denomination) else {
            throw GiftCardAmountViolation(amount: denomination, denominations: denominations, reason: .notWholeCents).engageError()
        }
        let face = each * quantity
        let maximum = GiftCardMoney.minorUnits(of: PiggyCardsWire.maxOrderAmount) ?? 0
        guard face <= maximum else {
            let limit = GiftCardDenominations.range(minimum: 0, maximum: PiggyCardsWire.maxOrderAmount)
            throw GiftCardAmountViolation(amount: GiftCardMoney.amount(minorUnits: face), denominations: limit, reason: .aboveMaximum)
                .engageError()
        }
        let discount = GiftCardMoney.percentage(of: face, basisPoints: product.discountBasisPoints)
        let paidDiscount = GiftCardMoney.percentage(
            of: face, basisPoints: max(0, product.discountBasisPoints - PiggyCardsWire.serviceFeeBasisPoints))
        let fee = discount - paidDiscount
        self.productID = product.id
        self.currency = product.currency
        self.denomination = denomination
        self.quantity = quantity
        self.faceValueMinorUnits = face
        self.discountMinorUnits = discount
        self.serviceFeeMinorUnits = fee
        self.totalMinorUnits = face - paidDiscount
    }
}
