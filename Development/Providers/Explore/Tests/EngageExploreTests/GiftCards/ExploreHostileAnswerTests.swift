@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageExploreCTX
@_spi(EngageProvider) @testable import EngageExploreGiftCards
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
import ExploreEmulator
import Foundation
import EngageTestTraits
import Testing
#if PiggyCards
    @_spi(EngageProvider) @testable import EngageExplorePiggyCards
#endif

/// Every Explore answer the client reads (the feed's manifest, CTX's tokens, merchants and cards, and
/// with the trait PiggyCards' catalogue, rate and orders), replaced by hostile variations of the
/// emulators' real answers: each call ends with a value or an `EngageError`, and what is stored (the
/// installed directory, the sessions) survives.
extension GiftCardSuites {
    @Suite("Explore: hostile answers to every operation that reads one", .bounded(.heavy))
    struct ExploreHostileAnswerTests {
        private func failures<Value>(_ outcomes: [Result<Value, EngageError>]) -> [EngageError] {
            outcomes.compactMap { outcome in
                if case let .failure(error) = outcome { return error }
                return nil
            }
        }

        @Test("the feed's manifest: values or EngageErrors, and the installed directory stays queryable")
        func hostileManifests() async throws {
            let harness = try await ExploreFeedHarness()
            try harness.publish(timestamp: 1_000)
            let answers = HostileAnswers()
            let (engage, explore) = try await harness.start(transport: answers)
            _ = try await explore.sync()
            let before = try await explore.merchants(ExploreMerchantQuery()).totalCount
            let outcomes = await answers.sweep(path: "/mainnet/manifest.json", seed: 61) { () async throws(EngageError) in
                _ = try await explore.sync()
            }
            #expect(outcomes.count >= 60)
            #expect(failures(outcomes).allSatisfy { $0.providerID == .explore })
            #expect(failures(outcomes).contains { $0.code == .decoding })
            #expect(try await explore.merchants(ExploreMerchantQuery()).totalCount == before, "the installed directory survived")
            #expect(harness.leftovers().isEmpty)
            await engage.shutdown()
            await harness.stop()
        }

        @Test("CTX's token, merchant and card answers: values or EngageErrors; the session survives the reads")
        func hostileCTXAnswers() async throws {
            let harness = try await ExploreFeedHarness()
            let answers = HostileAnswers()
            let (engage, explore) = try await harness.start(transport: answers)
            let ctx = try explore.giftCardSource(CTXGiftCards.self)
            let email = "ana@example.com"
            let signIns = await answers.sweep(seed: 71) { () async throws(EngageError) in
                try await ctx.requestCode(email: email)
                try await ctx.verify(email: email, code: harness.ctx.loginCode(for: email) ?? "")
            }
            try await ctx.requestCode(email: email)
            try await ctx.verify(email: email, code: try #require(harness.ctx.loginCode(for: email)))
            let merchant = try #require(harness.ctx.merchants.first { $0.merchant.isEnabled && $0.merchant.denominationsType == .fixed })
            let amount = try #require(merchant.merchant.denominationValues.first)
            let merchants = await answers.sweep(seed: 72) { () async throws(EngageError) in
                _ = try await ctx.merchant(id: merchant.merchant.id)
            }
            let purchases = await answers.sweep(seed: 73) { () async throws(EngageError) in
                _ = try await ctx.buyGiftCard(merchantID: merchant.merchant.id, fiatAmount: amount)
            }
            let card = try await ctx.buyGiftCard(merchantID: merchant.merchant.id, fiatAmount: amount)
            let cards = await answers.sweep(seed: 74) { () async throws(EngageError) in _ = try await ctx.giftCard(id: card.id) }
            for (name, outcomes) in [
                ("sign-in", signIns.map { $0.map { 0 } }), ("merchant", merchants.map { $0.map { 0 } }),
                ("purchase", purchases.map { $0.map { 0 } }), ("card", cards.map { $0.map { 0 } }),
            ] {
                #expect(outcomes.count >= 60, "\(name)")
                #expect(failures(outcomes).allSatisfy { $0.providerID == .explore }, "\(name)")
                #expect(failures(outcomes).contains { $0.code == .decoding || $0.code == .exploreGiftCardUnexpectedAnswer }, "\(name)")
            }
            #expect(try await ctx.isSignedIn())
            #expect(try await ctx.giftCard(id: card.id).id == card.id)
            await engage.shutdown()
            await harness.stop()
        }

        #if PiggyCards
            @Test("PiggyCards' catalogue, rate and order answers: values or EngageErrors; the account survives")
            func hostilePiggyCardsAnswers() async throws {
                let harness = try await ExploreFeedHarness()
                let answers = HostileAnswers()
                let (engage, explore) = try await harness.start(transport: answers)
                let piggy = try explore.giftCardSource(PiggyCardsGiftCards.self)
                try await piggy.signUp(firstName: "Rui", lastName: "Costa", email: "rui@example.com", country: "US")
                try await piggy.verify(otp: try #require(harness.piggyCards.otp(for: "rui@example.com")))
                let brand = try #require(try await piggy.brands(country: "US").first)
                let product = try #require(try await piggy.giftCards(country: "US", brandID: brand.id).first)
                let denomination = try #require(product.denominationValues.first ?? product.minDenomination)
                let order = try await piggy.buyGiftCard(product: product, denomination: denomination, recipientEmail: "rui@example.com")
                let sweeps = [
                    await answers.sweep(seed: 81) { () async throws(EngageError) in _ = try await piggy.brands(country: "US") },
                    await answers.sweep(seed: 82) { () async throws(EngageError) in
                        _ = try await piggy.giftCards(country: "US", brandID: brand.id)
                    },
                    await answers.sweep(seed: 83) { () async throws(EngageError) in _ = try await piggy.exchangeRate() },
                    await answers.sweep(seed: 84) { () async throws(EngageError) in _ = try await piggy.order(id: order.id) },
                    await answers.sweep(seed: 85) { () async throws(EngageError) in
                        _ = try await piggy.buyGiftCard(product: product, denomination: denomination, recipientEmail: "rui@example.com")
                    },
                ]
                for outcomes in sweeps {
                    #expect(outcomes.count >= 60)
                    #expect(failures(outcomes).allSatisfy { $0.providerID == .explore })
                    #expect(failures(outcomes).contains { $0.code == .decoding || $0.code == .exploreGiftCardUnexpectedAnswer })
                }
                #expect(try await piggy.isSignedIn())
                #expect(try await piggy.order(id: order.id).id == order.id)
                await engage.shutdown()
                await harness.stop()
            }
        #endif
    }
}
