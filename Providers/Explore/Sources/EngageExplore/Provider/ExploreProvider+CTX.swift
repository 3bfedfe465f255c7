import EngageCore
import Foundation

/// CTX gift cards through the provider: each call publishes its operation event
/// (`custom_<outcome>_ctx_<operation>_explore`) and has a callback twin in
/// `ExploreProvider+GiftCardCallbacks.swift`. The underlying client is ``ctx``.
///
/// ```swift
/// try await explore.ctxRequestCode(email: "ana@example.com")
/// try await explore.ctxVerify(email: "ana@example.com", code: codeFromEmail)
/// let card = try await explore.buyCTXGiftCard(merchantID: offer.sourceID ?? merchant.merchantID, fiatAmount: 25)
/// // … the wallet pays card.paymentURLs …
/// let delivered = try await explore.waitForCTXGiftCard(id: card.id)   // sealed in explore.giftCards
/// ```
extension ExploreProvider {
    /// The CTX client, or `.notConfigured`.
    func requireCTX() throws -> CTXClient {
        guard let ctx else {
            throw EngageError(.notConfigured, "CTX gift cards are off: set ExploreConfiguration.ctx.", providerID: .explore)
        }
        return ctx
    }

    /// Asks CTX to e-mail a sign-in code to `email`.
    public func ctxRequestCode(email: String) async throws(EngageError) {
        try await context.perform("ctx_request_code") { try await requireCTX().requestCode(email: email) }
    }

    /// Signs in with the e-mailed code; the session is kept sealed and refreshed as needed.
    public func ctxVerify(email: String, code: String) async throws(EngageError) {
        try await context.perform("ctx_verify") { try await requireCTX().verify(email: email, code: code) }
    }

    /// Signs out of CTX (the stored session is removed).
    public func ctxSignOut() async throws(EngageError) {
        try await context.perform("ctx_sign_out") { try await requireCTX().signOut() }
    }

    /// Whether a CTX session is stored. Local: publishes no operation event.
    public func ctxIsSignedIn() async throws(EngageError) -> Bool {
        try await context.local { try await requireCTX().isSignedIn() }
    }

    /// CTX's view of a merchant: denominations, discount, whether it sells now.
    public func ctxMerchant(id merchantID: String) async throws(EngageError) -> CTXMerchant {
        try await context.perform("ctx_merchant") { try await requireCTX().merchant(id: merchantID) }
    }

    /// Creates a gift card for `fiatAmount` at a CTX merchant, after checking the amount against the
    /// merchant's denominations (min/max range or fixed values) without sending anything invalid.
    public func buyCTXGiftCard(merchantID: String, fiatAmount: Decimal, fiatCurrency: String = "USD") async throws(EngageError) -> CTXGiftCard {
        try await context.perform("ctx_buy_gift_card") {
            try await requireCTX().purchaseGiftCard(merchantID: merchantID, fiatAmount: fiatAmount, fiatCurrency: fiatCurrency)
        }
    }

    /// The current state of a CTX gift card.
    public func ctxGiftCard(id: String) async throws(EngageError) -> CTXGiftCard {
        try await context.perform("ctx_gift_card") { try await requireCTX().giftCard(id: id) }
    }

    /// Polls a CTX gift card until it is fulfilled (its secrets are then sealed in ``giftCards``) or
    /// rejected (an error), on the SDK's clock.
    public func waitForCTXGiftCard(id: String, polling: GiftCardPolling = GiftCardPolling()) async throws(EngageError) -> CTXGiftCard {
        try await context.perform("ctx_wait_for_gift_card") { try await requireCTX().waitForGiftCard(id: id, polling: polling) }
    }

    /// Every purchased card kept in the sealed vault. Local: publishes no operation event.
    public func storedGiftCards() async throws(EngageError) -> [StoredGiftCard] {
        try await context.local { try giftCards.allCards() }
    }
}
