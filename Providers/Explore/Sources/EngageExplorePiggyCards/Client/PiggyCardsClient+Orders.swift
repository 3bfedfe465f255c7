@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExploreGiftCards
import Foundation
import HTTPTypes
import Logging

extension PiggyCardsClient {
    /// Computes the quote (denomination checked, face value at most 2 500, the wallet's 1.5 points off
    /// the discount, in integer cents) and, only if it is valid, `POST orders` as the Dash wallet sends
    /// it. The payment URI comes from the answer or, when it has none, from the order's status.
    ///
    /// - Throws: `.exploreGiftCardAmountInvalid` before sending for a bad denomination or too large an
    ///   order; `.invalidInput` for a product whose id is not PiggyCards' integer id;
    ///   `.exploreGiftCardOutOfStock` when PiggyCards says so (HTTP 500);
    ///   `.exploreGiftCardUnexpectedAnswer` when no usable `dash:` payment URI comes back; mapped failures.
    package func createOrder(
        product: PiggyCardsProduct, denomination: Decimal, quantity: Int = 1, recipientEmail: String
    ) async throws -> PiggyCardsOrder {
        let quote = try PiggyCardsQuote(product: product, denomination: denomination, quantity: quantity)
        let recipient = try GiftCardInput.email(recipientEmail)
        guard let productID = Int(product.id), productID > 0 else {
            throw EngageError(.invalidInput, "A PiggyCards product id is a positive whole number.", providerID: .explore)
        }
        guard let account = try PiggyCardsAccount.load(from: storage) else {
            throw EngageError(.unauthorized, "Sign up to PiggyCards before ordering.", providerID: .explore)
        }
        try await ensureSession()
        let line = PiggyCardsWire.OrderLine(
            productId: productID, quantity: quantity, denomination: denomination, currency: product.currency)
        let body = PiggyCardsWire.OrderRequest(orders: [line], recipientEmail: recipient, user: account.orderUser)
        let answer = try await client.json(
            PiggyCardsWire.OrderAnswer.self, .post, "orders", body: .json(body),
            options: PiggyCardsOperation.order.options(authorization: .required)
        )
        logger.info("PiggyCards order created", metadata: ["order": "\(answer.id)"])
        var payTo = answer.payTo ?? ""
        if payTo.isEmpty {
            // As the wallet does: the order's status repeats the payment URI.
            payTo = try await status(of: answer.id).payTo ?? ""
        }
        guard PiggyCardsPaymentURI(payTo) != nil else {
            throw EngageError(
                .exploreGiftCardUnexpectedAnswer,
                "PiggyCards gave no usable payment URI (dash:<address>?amount=<DASH>) for the order \(answer.id).", providerID: .explore,
                recoverySuggestion: "Read the order again later, or contact PiggyCards' support with the order id.")
        }
        return PiggyCardsOrder(id: answer.id, payTo: payTo, payMessage: answer.payMessage, quote: quote)
    }

    /// `GET orders/{id}`: the `data` of its `{code, message, data}` envelope.
    func status(of id: String) async throws -> PiggyCardsWire.OrderData {
        try await ensureSession()
        return try await client.piggyCardsPayload(
            PiggyCardsWire.OrderData.self, APIClient.path("orders", GiftCardInput.identifier(id, "order id")), operation: .orderStatus)
    }

    /// `GET orders/{id}`; a `Complete` order's cards are sealed in ``vault`` (as `<id>` for one card,
    /// `<id>-<n>` for several), unless the vault was emptied since the call began (or since `epoch`,
    /// when given: `.cancelled`, nothing stored).
    package func order(id: String, epoch: Int? = nil) async throws -> PiggyCardsOrderDetails {
        let epoch = try epoch ?? vault.epoch()
        let data = try await status(of: id)
        let details = PiggyCardsOrderDetails(
            id: data.orderId.isEmpty ? id : data.orderId, status: PiggyCardsOrderStatus(wireValue: data.status),
            cards: (data.cards ?? []).map(\.secrets), payTo: data.payTo, deliveryTime: data.deliveryTime
        )
        if details.status == .complete {
            for (index, secrets) in details.cards.enumerated() where !secrets.isEmpty {
                let key = details.cards.count == 1 ? details.id : "\(details.id)-\(index + 1)"
                try vault.store(provider: .piggyCards, id: key, secrets: secrets, epoch: epoch)
            }
        }
        return details
    }

    /// Polls `GET orders/{id}` on the injected clock until `Complete` (returned, secrets sealed) or
    /// `Cancelled` (`.exploreGiftCardRejected`); after `polling.maxPolls` requests without a final
    /// status, `.exploreGiftCardPending` (retryable). Transient failures count as polls.
    package func waitForOrder(id: String, polling: GiftCardPolling = GiftCardPolling()) async throws -> PiggyCardsOrderDetails {
        // One epoch for the whole wait: cards delivered after the user was forgotten are not stored.
        let epoch = try vault.epoch()
        return try await polling.run(clock: clock, subject: "order \(id)") { () async throws -> GiftCardPollStep<PiggyCardsOrderDetails> in
            let details = try await order(id: id, epoch: epoch)
            if details.status == .complete { return .delivered(details) }
            if details.status == .cancelled { return .rejected("PiggyCards cancelled the order \(id).") }
            return .pending(details.status.rawValue)
        }
    }
}
