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
    /// The app restored from a backup that carried its database but not the key that sealed it (the key
    /// never leaves the device): nothing throws forever, the session reads as signed out, and the bought
    /// cards are fetched again from CTX once the user signs in.
    @Suite("Gift cards after a restore without the key (end to end)", .bounded)
    struct GiftCardRestoreTests {
        @Test("the session reads signed out, the cards are listed lost, and they come back after sign-in")
        func restoreWithoutTheKey() async throws {
            let harness = try await CTXHarness(configuration: .init(fulfillmentDelay: .zero, clientID: CTXHarness.clientID))
            try await harness.signIn()
            let bought = try await harness.client.purchaseGiftCard(merchantID: harness.merchant(5).id, fiatAmount: 100)
            harness.emulator.markPaid(cardID: bought.id, transactionID: "tx-restore")
            let delivered = try await harness.client.giftCard(transactionID: "tx-restore")
            #expect(try harness.client.vault.card(provider: .ctx, id: bought.id) != nil)

            // The restored app: the same database, a new key.
            let restored = try GiftCardTestContext(clock: harness.clock, database: harness.test.context.database)
            var configuration = ExploreConfiguration(syncsAutomatically: false)
            configuration.giftCards[CTXGiftCards.self] = CTXConfiguration(baseURL: harness.baseURL, clientID: CTXHarness.clientID)
            let explore = try await ExploreProvider(configuration: configuration, context: restored.context)
            let ctx = try explore.giftCardSource(CTXGiftCards.self)

            #expect(try await ctx.isSignedIn() == false)
            #expect(try await explore.storedGiftCards().isEmpty)
            #expect(try await explore.lostGiftCards().map(\.id) == [bought.id])

            // Without a session the card cannot come back yet: reported, still lost, nothing thrown.
            let early = try await explore.recoverLostGiftCards()
            #expect(early.recovered.isEmpty)
            #expect(early.failures.map(\.card.id) == [bought.id])
            #expect(try await explore.lostGiftCards().map(\.id) == [bought.id])

            try await ctx.requestCode(email: "ana@example.com")
            try await ctx.verify(email: "ana@example.com", code: try #require(harness.emulator.loginCode(for: "ana@example.com")))
            let recovery = try await explore.recoverLostGiftCards()
            #expect(recovery.failures.isEmpty)
            #expect(recovery.recovered.map(\.id) == [bought.id])
            #expect(recovery.recovered.first?.secrets == delivered.secrets)
            #expect(try await explore.lostGiftCards().isEmpty)
            #expect(try await explore.storedGiftCards().map(\.id) == [bought.id])
            #expect(harness.requests(to: "/gift-cards/\(bought.id)").last?.status == 200)
            await harness.stop()
        }
    }
}
