@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExploreGiftCards
import Foundation
import HTTPTypes
import Logging

extension PiggyCardsClient {
    /// Computes the quote (denomination checked, face value at most 2 500, 1.5 % fee in integer
    /// cents) and, only if it is valid, `POST orders`.
    ///
    /// - Throws: `.exploreGiftCardAmountInvalid` before sending for a bad denomination or too large an
    ///   order; `.exploreGiftCardOutOfStock` when PiggyCards says so (HTTP 500); mapped failures.
    package func createOrder(
        product: PiggyCardsProduct, denomination: Decimal, quantity: Int = 1, recipientEmail: String
    ) async throws -> PiggyCardsOrder {
        let quote = try PiggyCardsQuote(product: product, denomination: denomination, quantity: quantity)
        let recipient = try GiftCardInput.email(recipientEmail)
        guard let account = try PiggyCardsAccount.load(from: storage) else {
            throw EngageError(.unauthorized, "Sign up to PiggyCards before ordering.", providerID: .explore)
        }
        try await ensureSession()
        let line = PiggyCardsWire.OrderLine(
            productId: product.id, quantity: quantity, denomination: GiftCardMoney.wireString(denomination), currency: product.currency
        )
        let body = PiggyCardsWire.OrderRequest(
            orders: [line], recipientEmail: recipient, user: PiggyCardsWire.OrderUser(userId: account.userID, email: account.email)
        )
        let answer = try await client.json(
            PiggyCardsWire.OrderAnswer.self, .post, "orders", body: .json(body),
            options: PiggyCardsOperation.order.options(authorization: .required)
        )
        logger.info("PiggyCards order created", metadata: ["order": "\(answer.id)"])
        return PiggyCardsOrder(id: answer.id, payTo: answer.payTo, payMessage: answer.payMessage, quote: quote)
    }

    /// `GET orders/{id}`; a `Complete` order's cards are sealed in ``vault`` (as `<id>` for one card,
    /// `<id>-<n>` for several).
    package func order(id: String) async throws -> PiggyCardsOrderDetails {
        try await ensureSession()
        let answer = try await client.json(
            PiggyCardsWire.OrderStatusAnswer.self, .get, APIClient.path("orders", GiftCardInput.identifier(id, "order id")),
            options: PiggyCardsOperation.orderStatus.options(authorization: .required)
        )
        let details = PiggyCardsOrderDetails(
            id: answer.id, status: PiggyCardsOrderStatus(wireValue: answer.status), cards: (answer.cards ?? []).map(\.secrets)
        )
        if details.status == .complete {
            for (index, secrets) in details.cards.enumerated() where !secrets.isEmpty {
                let key = details.cards.count == 1 ? details.id : "\(details.id)-\(index + 1)"
                try vault.store(provider: .piggyCards, id: key, secrets: secrets)
            }
        }
        return details
    }

    /// Polls `GET orders/{id}` on the injected clock until `Complete` (returned, secrets sealed) or
    /// `Cancelled` (`.exploreGiftCardRejected`); after `polling.maxPolls` requests without a final
    /// status, `.exploreGiftCardPending` (retryable). Transient failures count as polls.
    package func waitForOrder(id: String, polling: GiftCardPolling = GiftCardPolling()) async throws -> PiggyCardsOrderDetails {
        try await polling.run(clock: clock, subject: "order \(id)") { () async throws -> GiftCardPollStep<PiggyCardsOrderDetails> in
            let details = try await order(id: id)
            if details.status == .complete { return .delivered(details) }
            if details.status == .cancelled { return .rejected("PiggyCards cancelled the order \(id).") }
            return .pending(details.status.rawValue)
        }
    }
}
