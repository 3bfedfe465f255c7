@_spi(EngageProvider) import EngageCore

extension ProviderID {
    /// The Explore merchant directory and its gift-card providers.
    public static let explore: ProviderID = "explore"
}

extension EngageError.Code {
    /// The amount is not one the merchant sells: below its minimum, above its maximum, not one of its
    /// fixed values, or not a positive amount in whole cents. The underlying error is a
    /// ``GiftCardAmountViolation`` carrying the limits.
    public static let exploreGiftCardAmountInvalid: Self = "explore.giftCard.amountInvalid"
    /// The e-mail verification code (CTX) or one-time password (PiggyCards) was refused.
    public static let exploreGiftCardCodeInvalid: Self = "explore.giftCard.codeInvalid"
    /// The gift-card provider refused or cancelled the purchase (CTX `rejected`, HTTP 409; PiggyCards
    /// `Cancelled`).
    public static let exploreGiftCardRejected: Self = "explore.giftCard.rejected"
    /// The product is out of stock (PiggyCards: HTTP 500 "Gift card … is out of stock").
    public static let exploreGiftCardOutOfStock: Self = "explore.giftCard.outOfStock"
    /// The card was still not delivered when polling gave up; poll again later.
    public static let exploreGiftCardPending: Self = "explore.giftCard.pending"
    /// The gift-card provider answered with a server error (HTTP 5xx).
    public static let exploreGiftCardServer: Self = "explore.giftCard.server"
    /// The gift-card provider answered with a shape the client cannot use (for example a successful
    /// verification without tokens).
    public static let exploreGiftCardUnexpectedAnswer: Self = "explore.giftCard.unexpectedAnswer"
}

extension EngageError.Code {
    /// The gift-card codes (1501–1599), registered by the Explore provider, whose gift-card sources
    /// throw them.
    @_spi(EngageProvider) public static let giftCardEntries: [Entry] = [
        Entry(.exploreGiftCardAmountInvalid, number: 1501, summary: "The amount is not one the merchant sells."),
        Entry(.exploreGiftCardCodeInvalid, number: 1502, summary: "The verification code or one-time password was refused."),
        Entry(.exploreGiftCardRejected, number: 1503, summary: "The gift-card provider refused or cancelled the purchase."),
        Entry(.exploreGiftCardOutOfStock, number: 1504, summary: "The gift card product is out of stock."),
        Entry(.exploreGiftCardPending, number: 1505, summary: "The gift card was not delivered yet when polling gave up."),
        Entry(.exploreGiftCardServer, number: 1506, summary: "The gift-card provider answered with a server error."),
        Entry(
            .exploreGiftCardUnexpectedAnswer, number: 1507, summary: "The gift-card provider answered with a shape the client cannot use."),
    ]
}
