@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExploreGiftCards
import Foundation

/// PiggyCards gift cards, as the Explore provider sells them (module `EngageExplorePiggyCards`, built
/// with the `PiggyCards` trait): sign-up with an e-mailed one-time password, the catalogue, the
/// exchange rate, orders with a 1.5 % service fee, and their delivery. Each operation publishes the
/// Explore provider's operation event (`custom_<outcome>_piggycards_<operation>_explore`) and has a
/// completion-handler twin.
///
/// ```swift
/// let piggy = try explore.giftCardSource(PiggyCardsGiftCards.self)
/// try await piggy.signUp(firstName: "Ana", lastName: "Silva", email: "ana@example.com", country: "US")
/// try await piggy.verify(otp: otpFromEmail)
/// let products = try await piggy.giftCards(country: "US", brandID: brand.id)
/// let order = try await piggy.buyGiftCard(product: products[0], denomination: 25, recipientEmail: "ana@example.com")
/// // … the wallet pays order.dashAmount to order.paymentAddress (order.quote has the 1.5 % fee) …
/// let delivered = try await piggy.waitForOrder(id: order.id)   // cards sealed in explore.giftCards
/// ```
///
/// PiggyCards has no refresh token: when the access token expires, the sealed account logs in again
/// (concurrent callers share one login).
public final class PiggyCardsGiftCards: BuiltInGiftCardSource {
    /// The settings type: `{"baseURL": …}` under `piggyCards`.
    public typealias Configuration = PiggyCardsConfiguration

    /// PiggyCards' offers in the directory.
    public static let id = ExploreGiftCardProviderID.piggyCards
    /// `piggyCards` in the Explore section of a configuration.
    public static let configurationKey = "piggyCards"

    /// The client behind the operations (its tests reach it; apps use the operations).
    package let client: PiggyCardsClient
    let context: ProviderContext

    /// PiggyCards over the Explore provider's context.
    package init(configuration: PiggyCardsConfiguration, context: ProviderContext) throws(EngageError) {
        client = try PiggyCardsClient(configuration: configuration, context: context)
        self.context = context
    }

    /// `GET orders/{id}` again for a card whose sealed secrets were lost. The vault keeps the n-th card
    /// of an order of several as `<order>-<n>`: when `cardID` is not an order, its order is tried.
    package func fetchAgain(cardID: String) async throws -> Bool {
        var orders = [cardID]
        if let dash = cardID.lastIndex(of: "-"), dash != cardID.startIndex {
            let number = cardID[cardID.index(after: dash)...]
            if !number.isEmpty, number.allSatisfy({ ("0"..."9").contains($0) }) { orders.append(String(cardID[..<dash])) }
        }
        for (index, order) in orders.enumerated() {
            do {
                _ = try await client.order(id: order)
            } catch let error as EngageError where error.httpStatus == 404 && index < orders.count - 1 {
                continue
            }
            if try client.vault.card(provider: Self.id, id: cardID) != nil { return true }
        }
        return false
    }

    /// Whether an account with its generated password is stored (a token is obtained when needed).
    /// Local: publishes no operation event.
    public func isSignedIn() async throws(EngageError) -> Bool {
        try await context.local { try await client.isSignedIn() }
    }

    /// Forgets the token and the account; delivered cards stay in the vault.
    public func signOut() async throws(EngageError) {
        try await context.perform(PiggyCardsOperation.signOut) { try await client.signOut() }
    }

    /// Creates a PiggyCards account; a one-time password is e-mailed. Returns the user id.
    @discardableResult
    public func signUp(
        firstName: String, lastName: String, email: String, country: String, state: String? = nil
    ) async throws(EngageError) -> String {
        try await context.perform(PiggyCardsOperation.signUp) {
            try await client.signUp(firstName: firstName, lastName: lastName, email: email, country: country, state: state)
        }
    }

    /// Confirms the e-mailed one-time password (the generated password is kept sealed) and signs in.
    public func verify(otp: String) async throws(EngageError) {
        try await context.perform(PiggyCardsOperation.verify) { try await client.verify(otp: otp) }
    }

    /// The brands PiggyCards sells in `country`.
    public func brands(country: String) async throws(EngageError) -> [PiggyCardsBrand] {
        try await context.perform(PiggyCardsOperation.brands) { try await client.brands(country: country) }
    }

    /// The gift cards of one brand in `country`, with their denominations and discounts.
    public func giftCards(country: String, brandID: String) async throws(EngageError) -> [PiggyCardsProduct] {
        try await context.perform(PiggyCardsOperation.giftCards) { try await client.giftCards(country: country, brandID: brandID) }
    }

    /// PiggyCards' exchange rate for `currency` (DASH per unit, and the price of one DASH). An order's
    /// DASH amount is its own (``PiggyCardsOrder/dashAmount``), not a conversion with this rate.
    public func exchangeRate(currency: String = "USD") async throws(EngageError) -> PiggyCardsExchangeRate {
        try await context.perform(PiggyCardsOperation.exchangeRate) { try await client.exchangeRate(currency: currency) }
    }

    /// Orders `quantity` cards of `denomination` (checked against the product and the 2 500 limit
    /// before sending); the returned order has the `dash:` payment URI to pay and a quote with the
    /// 1.5 % service fee.
    public func buyGiftCard(
        product: PiggyCardsProduct, denomination: Decimal, quantity: Int = 1, recipientEmail: String
    ) async throws(EngageError) -> PiggyCardsOrder {
        try await context.perform(PiggyCardsOperation.order) {
            try await client.createOrder(product: product, denomination: denomination, quantity: quantity, recipientEmail: recipientEmail)
        }
    }

    /// The current state of an order.
    public func order(id: String) async throws(EngageError) -> PiggyCardsOrderDetails {
        try await context.perform(PiggyCardsOperation.orderStatus) { try await client.order(id: id) }
    }

    /// Polls an order until it is complete (its cards are then sealed in the vault) or cancelled.
    public func waitForOrder(id: String, polling: GiftCardPolling = GiftCardPolling()) async throws(EngageError) -> PiggyCardsOrderDetails {
        try await context.perform(PiggyCardsOperation.waitForOrder) { try await client.waitForOrder(id: id, polling: polling) }
    }

    // MARK: Callback twins
}
