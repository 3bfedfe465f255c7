@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExploreGiftCards
import Foundation
import HTTPTypes
import Logging

extension CTXClient {
    /// Buys a gift card of `merchantID` for `fiatAmount`: reads the merchant, checks the amount against
    /// its denominations *before* sending, then `POST gift-cards` with the amount as a decimal string.
    ///
    /// - Returns: The created card (`unpaid`, with its payment URLs).
    /// - Throws: `.exploreGiftCardAmountInvalid` (with a ``GiftCardAmountViolation``) when the amount is
    ///   below the minimum, above the maximum or not a fixed value; `.exploreGiftCardRejected` for a
    ///   disabled merchant or HTTP 409; `.unauthorized` without a session; mapped HTTP failures.
    package func purchaseGiftCard(merchantID: String, fiatAmount: Decimal, fiatCurrency: String = "USD") async throws -> CTXGiftCard {
        let merchant = try await merchant(id: merchantID)
        return try await purchaseGiftCard(merchant: merchant, fiatAmount: fiatAmount, fiatCurrency: fiatCurrency)
    }

    /// Buys a gift card of an already read `merchant` (see ``purchaseGiftCard(merchantID:fiatAmount:fiatCurrency:)``).
    package func purchaseGiftCard(merchant: CTXMerchant, fiatAmount: Decimal, fiatCurrency: String = "USD") async throws -> CTXGiftCard {
        guard merchant.isEnabled else {
            throw EngageError(
                .exploreGiftCardRejected, "CTX does not sell gift cards of \(merchant.name) at the moment.", providerID: .explore,
                recoverySuggestion: "Choose another merchant or try later."
            )
        }
        if let denominations = merchant.denominations {
            try denominations.validate(fiatAmount)
        } else if GiftCardMoney.minorUnits(of: fiatAmount) == nil || fiatAmount <= 0 {
            throw GiftCardAmountViolation(amount: fiatAmount, denominations: .fixed([]), reason: .notWholeCents).engageError()
        }
        let body = CTXWire.PurchaseRequest(
            fiatCurrency: fiatCurrency, fiatAmount: GiftCardMoney.wireString(fiatAmount), merchantId: merchant.id
        )
        let epoch = try vault.epoch()
        var card = try await client.json(
            CTXGiftCard.self, .post, CTXWire.Path.giftCards, body: .json(body),
            options: CTXOperation.purchase.options(authorization: .required)
        )
        purchasedMerchants.withLock { $0[card.id] = merchant.id }
        logger.info("CTX gift card created", metadata: ["card": "\(card.id)", "status": "\(card.status)"])
        try storeIfDelivered(&card, epoch: epoch)
        return card
    }

    /// `GET gift-cards/{id}`; a delivered card's secrets are sealed in ``vault``, unless the vault was
    /// emptied since the call began (or since `epoch`, when given: `.cancelled`, nothing stored).
    package func giftCard(id: String, epoch: Int? = nil) async throws -> CTXGiftCard {
        let id = try GiftCardInput.identifier(id, "gift card id")
        let epoch = try epoch ?? vault.epoch()
        var card = try await client.json(
            CTXGiftCard.self, .get, APIClient.path(CTXWire.Path.giftCards, id),
            options: CTXOperation.giftCard.options(authorization: .required)
        )
        try storeIfDelivered(&card, epoch: epoch)
        return card
    }

    /// `GET gift-cards?txid=`: the card paid by the Dash transaction `txid`. CTX answers one card
    /// object (the official clients decode `GiftCardResponse`, not a list), so one card comes back.
    package func giftCard(transactionID txid: String) async throws -> CTXGiftCard {
        let txid = try GiftCardInput.identifier(txid, "transaction id")
        let epoch = try vault.epoch()
        var card = try await client.json(
            CTXGiftCard.self, .get, CTXWire.Path.giftCards, query: [("txid", txid)],
            options: CTXOperation.giftCardsByTransaction.options(authorization: .required)
        )
        try storeIfDelivered(&card, epoch: epoch)
        return card
    }

    /// Polls `GET gift-cards/{id}` on the injected clock until the card is `fulfilled` (returned, its
    /// secrets sealed in ``vault``) or `rejected` (`.exploreGiftCardRejected`).
    ///
    /// Transient failures (5xx, network) count as polls and polling goes on; after
    /// `polling.maxPolls` requests without a final status it throws `.exploreGiftCardPending`
    /// (retryable). Other failures end polling at once.
    package func waitForGiftCard(id: String, polling: GiftCardPolling = GiftCardPolling()) async throws -> CTXGiftCard {
        // One epoch for the whole wait: a card delivered after the user was forgotten is not stored.
        let epoch = try vault.epoch()
        return try await polling.run(clock: clock, subject: "gift card \(id)") { () async throws -> GiftCardPollStep<CTXGiftCard> in
            let card = try await giftCard(id: id, epoch: epoch)
            if card.status == .fulfilled { return .delivered(card) }
            if card.status == .rejected { return .rejected("CTX rejected the gift card \(card.id).") }
            return .pending(card.status.rawValue)
        }
    }

    /// Names the merchant of a card bought in this launch (CTX's answers do not), then seals a
    /// delivered card's secrets if the vault is still in `epoch`.
    private func storeIfDelivered(_ card: inout CTXGiftCard, epoch: Int) throws {
        card.merchantID = card.merchantID ?? purchasedMerchants.withLock { $0[card.id] }
        guard !card.secrets.isEmpty else { return }
        // The card's face value (what it spends), not what was paid for it after the discount.
        try vault.store(
            provider: .ctx, id: card.id, merchantID: card.merchantID, fiatAmount: card.cardFiatAmount ?? card.fiatAmount,
            fiatCurrency: card.cardFiatCurrency ?? card.fiatCurrency, secrets: card.secrets, epoch: epoch
        )
    }
}
