@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageExploreCTX
@_spi(EngageProvider) @testable import EngageExploreGiftCards
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
import ExploreEmulator
import Foundation
import EngageTestTraits
import Testing

extension GiftCardSuites {
    @Suite("CTX merchants and purchases (end to end)", .bounded)
    struct CTXPurchaseTests {
        @Test("merchants read the same from the current and the legacy spelling")
        func merchantSpellings() async throws {
            let harness = try await CTXHarness()
            for entry in harness.emulator.merchants {
                let merchant = try await harness.client.merchant(id: entry.merchant.id)
                #expect(
                    merchant == CTXHarness.clientMerchant(of: entry.merchant),
                    "\(entry.merchant.name), staging: \(entry.usesLegacySpelling)")
            }
            #expect(harness.emulator.merchants.contains { $0.usesLegacySpelling })
            #expect(harness.emulator.merchants.contains { !$0.usesLegacySpelling })
            let legacy = try #require(harness.requests(to: "/merchants/\(harness.merchant(1).id)").first)
            #expect(legacy.status == 200)
            let unknown = await engageError { _ = try await harness.client.merchant(id: "no-such-merchant") }
            #expect(unknown?.httpStatus == 404)
            await harness.stop()
        }

        @Test(
            "amounts are checked against the denominations before anything is sent",
            arguments: [
                ("5", GiftCardAmountViolation.Reason.belowMinimum, 0),  // 10 to 500
                ("500.01", .aboveMaximum, 0),
                ("30", .notOffered, 1),  // fixed 25, 50, 100 (legacy spelling)
                ("25.005", .notWholeCents, 0),
                ("-10", .notWholeCents, 0),
            ])
        func amountRefusedLocally(amount: String, reason: GiftCardAmountViolation.Reason, merchantIndex: Int) async throws {
            let harness = try await CTXHarness()
            try await harness.signIn()
            let value = try #require(Decimal(string: amount))
            let error = await engageError {
                _ = try await harness.client.purchaseGiftCard(merchantID: harness.merchant(merchantIndex).id, fiatAmount: value)
            }
            #expect(error?.code == .exploreGiftCardAmountInvalid)
            let violation = try #require(error?.underlyingError as? GiftCardAmountViolation)
            #expect(violation.reason == reason)
            #expect(violation.minimum != nil && violation.maximum != nil)
            #expect(error?.message.contains(GiftCardMoney.plainString(value)) == true)
            #expect(harness.requests(to: "/gift-cards").isEmpty)
            await harness.stop()
        }

        @Test("a fixed value and a decimal amount are sent as decimal strings and create unpaid cards")
        func purchaseSendsDecimalString() async throws {
            let harness = try await CTXHarness()
            try await harness.signIn()
            let fixed = try await harness.client.purchaseGiftCard(merchantID: harness.merchant(1).id, fiatAmount: 50)
            #expect(fixed.status == .unpaid)
            #expect(fixed.paymentURLs?["DASH.DASH"]?.hasPrefix("dash:") == true)
            #expect(fixed.secrets.isEmpty)
            let decimal = try await harness.client.purchaseGiftCard(
                merchantID: harness.merchant(0).id, fiatAmount: try #require(Decimal(string: "25.50")))
            #expect(decimal.cardFiatAmount == Decimal(string: "25.50"))
            let bodies = try harness.requests(to: "/gift-cards").map { try $0.decodeBody(CTXWire.PurchaseRequest.self) }
            #expect(bodies.map(\.fiatAmount) == ["50.00", "25.50"])
            #expect(bodies.map(\.merchantId) == [harness.merchant(1).id, harness.merchant(0).id])
            #expect(bodies.allSatisfy { $0.cryptoCurrency == "DASH" && $0.fiatCurrency == "USD" })
            #expect(harness.requests(to: "/gift-cards").last?.bodyText?.contains(#""fiatAmount":"25.50""#) == true)
            await harness.stop()
        }

        @Test("waitForGiftCard polls on the injected clock until fulfilled, then the secrets are sealed in the vault")
        func pollingToFulfilled() async throws {
            let harness = try await CTXHarness()
            try await harness.signIn()
            let card = try await harness.client.purchaseGiftCard(merchantID: harness.merchant(0).id, fiatAmount: 40)
            let client = harness.client
            let waiting = Task { try await client.waitForGiftCard(id: card.id) }
            await harness.clock.waitForSleepers(1)  // first poll: unpaid
            harness.emulator.markPaid(cardID: card.id)
            harness.clock.advance(by: .seconds(5))
            await harness.clock.waitForSleepers(1)  // second poll: paid; fulfilled 10 s after payment
            harness.clock.advance(by: .seconds(5))  // third poll: fulfilled
            let delivered = try await waiting.value
            #expect(delivered.status == .fulfilled)
            let backend = try #require(harness.emulator.card(id: card.id))
            #expect(delivered.secrets == CTXHarness.secrets(of: backend))
            #expect(delivered.secrets.redeemURLChallenge != nil)
            #expect(delivered.cardFiatAmount == 40 && delivered.cardFiatCurrency == "USD")
            #expect(delivered.fiatAmount == 38 && delivered.fiatCurrency == "USD", "40 less the merchant's 5 %")
            #expect(delivered.merchantName == harness.merchant(0).name && delivered.merchantID == harness.merchant(0).id)
            #expect(delivered.secrets.number?.count == 16)
            #expect(harness.requests(to: "/gift-cards/\(card.id)").count == 3)
            let stored = try #require(try harness.client.vault.card(provider: .ctx, id: card.id))
            #expect(stored.secrets == CTXHarness.secrets(of: backend))
            #expect(stored.fiatAmount == 40)
            #expect(try harness.client.vault.allCards().map(\.id) == [card.id])
            await harness.stop()
        }

        @Test("a card rejected after payment ends polling with .exploreGiftCardRejected")
        func pollingToRejected() async throws {
            let harness = try await CTXHarness(configuration: .init(fulfillmentDelay: .zero, clientID: CTXHarness.clientID))
            try await harness.signIn()
            // The emulator's merchant 4 rejects its cards after payment.
            let card = try await harness.client.purchaseGiftCard(merchantID: harness.merchant(4).id, fiatAmount: 20)
            harness.emulator.markPaid(cardID: card.id)
            let error = await engageError { _ = try await harness.client.waitForGiftCard(id: card.id) }
            #expect(error?.code == .exploreGiftCardRejected)
            #expect(error?.message.contains(card.id) == true)
            #expect(try harness.client.vault.allCards().isEmpty)

            let other = try await harness.client.purchaseGiftCard(merchantID: harness.merchant(0).id, fiatAmount: 20)
            harness.emulator.reject(cardID: other.id)
            let forced = await engageError { _ = try await harness.client.waitForGiftCard(id: other.id) }
            #expect(forced?.code == .exploreGiftCardRejected)
            await harness.stop()
        }

        @Test("polling is bounded: after maxPolls unpaid answers it throws a retryable .exploreGiftCardPending")
        func pollingIsBounded() async throws {
            let harness = try await CTXHarness()
            try await harness.signIn()
            let card = try await harness.client.purchaseGiftCard(merchantID: harness.merchant(0).id, fiatAmount: 40)
            let client = harness.client
            let waiting = Task {
                try await client.waitForGiftCard(id: card.id, polling: GiftCardPolling(interval: .seconds(2), maxPolls: 3))
            }
            for _ in 0..<2 {
                await harness.clock.waitForSleepers(1)
                harness.clock.advance(by: .seconds(2))
            }
            let error = await engageError { _ = try await waiting.value }
            #expect(error?.code == .exploreGiftCardPending)
            #expect(error?.isRetryable == true)
            #expect(error?.message.contains("unpaid") == true)
            #expect(harness.requests(to: "/gift-cards/\(card.id)").count == 3)
            await harness.stop()
        }

        @Test("a polling policy set to zero or negative polls still checks once (no trap); decoding refuses it")
        func pollingOutOfRange() async throws {
            var polling = GiftCardPolling(interval: .seconds(2), maxPolls: 3)
            polling.maxPolls = 0
            #expect(polling.maxPolls == 1)
            polling.maxPolls = -5
            #expect(polling.maxPolls == 1)
            polling.interval = .seconds(-1)
            #expect(polling.interval == .zero)
            let harness = try await CTXHarness()
            try await harness.signIn()
            let card = try await harness.client.purchaseGiftCard(merchantID: harness.merchant(0).id, fiatAmount: 40)
            let error = await engageError { _ = try await harness.client.waitForGiftCard(id: card.id, polling: polling) }
            #expect(error?.code == .exploreGiftCardPending)
            #expect(harness.requests(to: "/gift-cards/\(card.id)").count == 1)
            await harness.stop()
            let valid = try JSONDecoder().decode(
                GiftCardPolling.self, from: try JSONEncoder().encode(GiftCardPolling(interval: .seconds(3), maxPolls: 4)))
            #expect(valid == GiftCardPolling(interval: .seconds(3), maxPolls: 4))
            var zero = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(GiftCardPolling())) as? [String: Any] ?? [:]
            zero["maxPolls"] = 0
            #expect(throws: DecodingError.self) {
                try JSONDecoder().decode(GiftCardPolling.self, from: try JSONSerialization.data(withJSONObject: zero))
            }
        }

        @Test("the card paid by a transaction is read with GET gift-cards?txid=, which answers one card object")
        func cardsByTransaction() async throws {
            let harness = try await CTXHarness(configuration: .init(fulfillmentDelay: .zero, clientID: CTXHarness.clientID))
            try await harness.signIn()
            let card = try await harness.client.purchaseGiftCard(merchantID: harness.merchant(5).id, fiatAmount: 100)
            harness.emulator.markPaid(cardID: card.id, transactionID: "abc123")
            let paid = try await harness.client.giftCard(transactionID: "abc123")
            #expect(paid.id == card.id && paid.status == .fulfilled)
            #expect(paid.merchantID == harness.merchant(5).id, "the merchant of a card bought in this launch")
            #expect(harness.requests(to: "/gift-cards").last?.query["txid"] == "abc123")
            #expect(try harness.client.vault.card(provider: .ctx, id: card.id) != nil)
            await harness.stop()
        }
    }
}
