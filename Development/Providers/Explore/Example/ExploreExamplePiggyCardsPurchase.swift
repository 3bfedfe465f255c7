#if PiggyCards
    @_spi(EngageProvider) import EngageCore
    @_spi(EngageProvider) import EngageExampleSupport
    import EngageExplore
    import Foundation

    /// Buys one PiggyCards gift card from the service at `--piggycards-url` (the real one,
    /// `https://api.piggy.cards/dash/v1/`, or the sandbox's emulator): sign-up with the one-time
    /// password from `PIGGYCARDS_CODE` or a terminal (the account is kept sealed in `--storage`, so a
    /// second run signs in without a new code), the brand's card, the order, the `dash:` payment request
    /// to pay with a Dash wallet, and polling until the order is complete or cancelled. Prints the card,
    /// the amounts, the currency and the status; never a claim code, PIN or link.
    struct ExploreExamplePiggyCardsPurchase {
        /// What the run prints with `--json`: one document.
        struct Summary: Encodable {
            var orderID: String
            var product: String
            var productID: String
            var cardAmount: String
            var quantity: Int
            var paidAmount: String
            var serviceFee: String
            var currency: String
            var dashAmount: String?
            var status: String
            var cards: Int
        }

        let explore: ExploreProvider
        let email: String
        let country: String
        let brandID: String
        let productID: String
        let amount: Decimal
        let output: ExampleOutput

        func run(environment: [String: String] = ProcessInfo.processInfo.environment) async throws -> Summary {
            let piggy = try explore.giftCardSource(PiggyCardsGiftCards.self)
            if try await piggy.isSignedIn() {
                output.line("Signed in to PiggyCards (the stored account)")
            } else {
                // Empty names, as the Dash wallet signs up; a stored account (an earlier run's sign-up) is
                // verified with the code it was sent.
                let code = try await ExploreExampleRealPurchase.code(
                    from: "PIGGYCARDS_CODE", environment: environment, prompt: "The one-time password PiggyCards sent to \(email): ",
                    sent: "PiggyCards sent a one-time password to \(email). Run again, with the same --storage, "
                        + "with PIGGYCARDS_CODE=<the code> in the environment."
                ) { try await piggy.signUp(firstName: "", lastName: "", email: email, country: country) }
                try await piggy.verify(otp: code)
            }
            let products = try await piggy.giftCards(country: country, brandID: brandID)
            guard let product = products.first(where: { $0.id == productID }) else {
                throw ExploreExampleError(
                    message: "PiggyCards sells no card \(productID) of brand \(brandID) in \(country): "
                        + products.prefix(10).map { "\($0.id) \($0.name)" }.joined(separator: ", "))
            }
            let order = try await piggy.buyGiftCard(product: product, denomination: amount, recipientEmail: email)
            output.line("Ordered a \(ExploreExampleRealPurchase.text(amount)) \(product.currency) \(product.name) card (order \(order.id))")
            output.line("Pay it with a Dash wallet: \(order.payTo)")
            output.line("Waiting for the card (polling every 2 s, up to 15 minutes)…")
            let details = try await piggy.waitForOrder(id: order.id, polling: GiftCardPolling(interval: .seconds(2), maxPolls: 450))
            return Summary(
                orderID: order.id, product: product.name, productID: product.id, cardAmount: ExploreExampleRealPurchase.text(amount),
                quantity: 1,
                paidAmount: ExploreExampleRealPurchase.text(order.quote.total),
                serviceFee: ExploreExampleRealPurchase.text(order.quote.serviceFee), currency: product.currency,
                dashAmount: order.dashAmount.map(ExploreExampleRealPurchase.text), status: details.status.rawValue,
                cards: details.cards.count
            )
        }

        /// Prints the summary as lines, or as one JSON document.
        func print(_ summary: Summary) throws {
            if output.json { return try output.printJSON(summary) }
            output.line("Order \(summary.orderID), \(summary.product): \(summary.status)")
            output.line(
                "  value \(summary.cardAmount) \(summary.currency), paid \(summary.paidAmount) \(summary.currency) "
                    + "(fee \(summary.serviceFee)), \(summary.dashAmount ?? "?") DASH; \(summary.cards) card(s) sealed in the vault")
        }
    }
#endif
