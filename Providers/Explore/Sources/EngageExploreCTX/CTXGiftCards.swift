@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExploreGiftCards
import Foundation

/// CTX ("DashSpend") gift cards, as the Explore provider sells them: e-mail sign-in, CTX's view of a
/// merchant, purchases and their delivery. Each operation publishes the Explore provider's operation
/// event (`custom_<outcome>_ctx_<operation>_explore`) and has a completion-handler twin.
///
/// ```swift
/// let ctx = try explore.giftCardSource(CTXGiftCards.self)
/// try await ctx.requestCode(email: "ana@example.com")
/// try await ctx.verify(email: "ana@example.com", code: codeFromEmail)
/// let card = try await ctx.buyGiftCard(merchantID: offer.sourceID ?? merchant.merchantID, fiatAmount: 25)
/// // … the wallet pays card.paymentURLs …
/// let delivered = try await ctx.waitForGiftCard(id: card.id)   // sealed in explore.giftCards
/// ```
///
/// The session (CTX's rotating tokens) is sealed in the Explore namespace and refreshed by the core's
/// token manager; see the Explore gift-card docs for the rules.
public final class CTXGiftCards: BuiltInGiftCardSource {
    /// The settings type: `{"baseURL": …, "clientID": …, "acceptLanguage": …}` under `ctx`.
    public typealias Configuration = CTXConfiguration

    /// CTX's offers in the directory.
    public static let id = ExploreGiftCardProviderID.ctx
    /// `ctx` in the Explore section of a configuration.
    public static let configurationKey = "ctx"

    /// The client behind the operations (its tests reach it; apps use the operations).
    package let client: CTXClient
    let context: ProviderContext

    /// CTX over the Explore provider's context.
    package init(configuration: CTXConfiguration, context: ProviderContext) throws(EngageError) {
        client = try CTXClient(configuration: configuration, context: context)
        self.context = context
    }

    /// `GET gift-cards/{id}` again for a card whose sealed secrets were lost.
    package func fetchAgain(cardID: String) async throws -> Bool {
        try await !client.giftCard(id: cardID).secrets.isEmpty
    }

    /// Asks CTX to e-mail a sign-in code to `email`.
    public func requestCode(email: String) async throws(EngageError) {
        try await context.perform(CTXOperation.requestCode) { try await client.requestCode(email: email) }
    }

    /// Signs in with the e-mailed code; the session is kept sealed and refreshed as needed.
    public func verify(email: String, code: String) async throws(EngageError) {
        try await context.perform(CTXOperation.verify) { try await client.verify(email: email, code: code) }
    }

    /// Signs out of CTX (the stored session is removed; delivered cards stay in the vault).
    public func signOut() async throws(EngageError) {
        try await context.perform(CTXOperation.signOut) { try await client.signOut() }
    }

    /// Whether a CTX session is stored. Local: publishes no operation event.
    public func isSignedIn() async throws(EngageError) -> Bool {
        try await context.local { try await client.isSignedIn() }
    }

    /// CTX's view of a merchant: denominations, discount, whether it sells now.
    public func merchant(id merchantID: String) async throws(EngageError) -> CTXMerchant {
        try await context.perform(CTXOperation.merchant) { try await client.merchant(id: merchantID) }
    }

    /// Creates a gift card for `fiatAmount` at a CTX merchant, after checking the amount against the
    /// merchant's denominations (min/max range or fixed values) without sending anything invalid.
    public func buyGiftCard(merchantID: String, fiatAmount: Decimal, fiatCurrency: String = "USD") async throws(EngageError) -> CTXGiftCard
    {
        try await context.perform(CTXOperation.purchase) {
            try await client.purchaseGiftCard(merchantID: merchantID, fiatAmount: fiatAmount, fiatCurrency: fiatCurrency)
        }
    }

    /// The current state of a CTX gift card (a delivered card's secrets are sealed in the vault).
    public func giftCard(id: String) async throws(EngageError) -> CTXGiftCard {
        try await context.perform(CTXOperation.giftCard) { try await client.giftCard(id: id) }
    }

    /// The CTX gift card paid by one Dash transaction (its id as CTX knows it: the Dash wallet sends the
    /// transaction hash in base58): a wallet that finds a payment to CTX in its history shows what it
    /// bought. CTX answers one card per transaction. A delivered card's secrets are sealed in the vault.
    /// Needs a CTX session (`.authenticationRequired` without one).
    public func giftCard(transactionID: String) async throws(EngageError) -> CTXGiftCard {
        try await context.perform(CTXOperation.giftCardsByTransaction) { try await client.giftCard(transactionID: transactionID) }
    }

    /// Polls a CTX gift card until it is fulfilled (its secrets are then sealed in the vault) or
    /// rejected (an error), on the SDK's clock.
    public func waitForGiftCard(id: String, polling: GiftCardPolling = GiftCardPolling()) async throws(EngageError) -> CTXGiftCard {
        try await context.perform(CTXOperation.waitForGiftCard) { try await client.waitForGiftCard(id: id, polling: polling) }
    }

    // MARK: Callback twins
}
