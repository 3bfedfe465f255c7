@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageExploreCTX
@_spi(EngageProvider) @testable import EngageExploreGiftCards
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
import EngageTestTraits
import ExploreEmulator
import Foundation
import Testing
#if PiggyCards
    @_spi(EngageProvider) @testable import EngageExplorePiggyCards
#endif

extension GiftCardSuites {
    /// A card whose answer arrives after the user was forgotten (`ExploreProvider.reset()` empties the
    /// vault) must not be sealed for the next user. Before the vault had an epoch, each of these stored
    /// the old user's card in the emptied vault.
    @Suite("Gift cards answered after the vault was emptied are not stored", .bounded)
    struct GiftCardEpochTests {
        @Test("the epoch is kept in storage: every vault over the namespace sees an emptying")
        func epochIsShared() throws {
            let test = try GiftCardTestContext(clock: FakeClock())
            let first = GiftCardVault(storage: test.context.storage, clock: test.clock)
            let second = GiftCardVault(storage: test.context.storage, clock: test.clock)
            let epoch = try first.epoch()
            try first.store(provider: .ctx, id: "c-1", secrets: GiftCardSecrets(number: "6006"), epoch: epoch)
            #expect(try second.removeAll() == 1)
            #expect(try first.epoch() == epoch + 1)
            let refused = #expect(throws: EngageError.self) {
                try first.store(provider: .ctx, id: "c-2", secrets: GiftCardSecrets(number: "6007"), epoch: epoch)
            }
            #expect(refused?.code == .cancelled)
            #expect(try second.allCards().isEmpty)
        }

        @Test("CTX: a fulfilled card answered after the emptying is not stored", .bounded(deadline: .seconds(60)))
        func ctxCardAfterReset() async throws {
            let harness = try await CTXHarness(configuration: .init(fulfillmentDelay: .zero, clientID: CTXHarness.clientID))
            try await harness.signIn()
            let card = try await harness.client.purchaseGiftCard(merchantID: harness.merchant(0).id, fiatAmount: 40)
            harness.emulator.markPaid(cardID: card.id)
            harness.host.faults.inject(
                FaultRule(.delay(.seconds(1)), emulatorID: "ctx", method: "GET", path: "/gift-cards/\(card.id)", trigger: .times(1)))
            let client = harness.client
            let read = Task { try await client.waitForGiftCard(id: card.id) }
            try await eventuallyTrue("the read reaches the server") { await harness.gate.arrivals == 1 }
            try client.vault.removeAll()
            await harness.gate.open()
            let error = await engageError { _ = try await read.value }
            #expect(error?.code == .cancelled)
            #expect(try client.vault.allCards().isEmpty, "the old user's card was sealed again")
            // A new read (a new epoch) stores it: only answers on their way during the emptying are refused.
            #expect(try await client.giftCard(id: card.id).status == .fulfilled)
            #expect(try client.vault.allCards().count == 1)
            await harness.stop()
        }

        #if PiggyCards
            @Test("PiggyCards: a complete order answered after the emptying stores no card", .bounded(deadline: .seconds(60)))
            func piggyCardsOrderAfterReset() async throws {
                let gate = TestGate()
                let harness = try await PiggyCardsHarness(
                    configuration: .init(processingDelay: .zero, fulfillmentDelay: .zero), sleep: { _ in await gate.pass() })
                try await harness.signIn()
                let order = try await harness.client.createOrder(
                    product: try await harness.product("1001"), denomination: 25, recipientEmail: "rui@example.com")
                harness.emulator.markPaid(orderID: order.id)
                harness.host.faults.inject(
                    FaultRule(.delay(.seconds(1)), emulatorID: "piggycards", method: "GET", path: "/orders/\(order.id)", trigger: .times(1))
                )
                let client = harness.client
                let read = Task { try await client.order(id: order.id) }
                try await eventuallyTrue("the read reaches the server") { await gate.arrivals == 1 }
                try client.vault.removeAll()
                await gate.open()
                let error = await engageError { _ = try await read.value }
                #expect(error?.code == .cancelled)
                #expect(try client.vault.allCards().isEmpty, "the old user's card was sealed again")
                await harness.stop()
            }
        #endif
    }
}
