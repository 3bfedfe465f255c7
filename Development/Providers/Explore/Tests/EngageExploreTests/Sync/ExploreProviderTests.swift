@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageExploreCTX
@_spi(EngageProvider) @testable import EngageExploreGiftCards
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
import ExploreEmulator
import Foundation
@_spi(EngageProvider) @testable import EngageCore
import EngageTestTraits
import Testing
#if PiggyCards
    @_spi(EngageProvider) @testable import EngageExplorePiggyCards
#endif

/// The provider over a fixed directory file: the PiggyCards country rule, the facade's merged
/// merchants, the callback twins and operation events.
@Suite("Explore provider", .serialized, .bounded)
struct ExploreProviderTests {
    private func start(
        country: String? = nil
    ) async throws -> (ExploreFeedHarness, Engage, ExploreProvider, ExploreFixture, BruteForceDirectory) {
        let harness = try await ExploreFeedHarness()
        let (fixture, brute) = try ExploreFixture.shared()
        let (engage, provider) = try await harness.start(
            harness.exploreConfiguration {
                $0.feedURL = nil
                $0.databasePath = fixture.path
                $0.userCountry = country
            })
        return (harness, engage, provider, fixture, brute)
    }

    @Test("PiggyCards-only merchants: shown with the trait outside RU and CU, hidden in restricted countries and without the trait")
    func piggyCardsCountryRule() async throws {
        for country in ["GR", "ru", "CU", nil] as [String?] {
            let (harness, engage, provider, _, brute) = try await start(country: country)
            let restricted = ["RU", "CU"].contains(country?.uppercased() ?? "")
            #expect(provider.configuration.isRestrictedCountry == restricted)
            var ids = Set<String>()
            var query = ExploreMerchantQuery(page: PageRequest(limit: 1_000))
            while true {
                let page = try await provider.merchants(query)
                ids.formUnion(page.items.map(\.merchantID))
                guard page.hasMore else { break }
                query.page = PageRequest(offset: query.page.offset + 1_000, limit: 1_000)
            }
            #if PiggyCards
                let hidden = restricted
            #else
                let hidden = true
            #endif
            #expect(ids.isDisjoint(with: brute.piggyOnly) == hidden, "\(country ?? "no country")")
            #expect(ids == brute.matchingMerchants(ExploreMerchantQuery(), hidePiggyOnly: hidden), "\(country ?? "no country")")
            let piggyOnly = try #require(brute.piggyOnly.sorted().first)
            #expect((try await provider.merchant(id: piggyOnly) == nil) == hidden)
            await engage.shutdown()
            await harness.stop()
        }
    }

    @Test("engage.merchants(near:) lists the directory's merchants nearest first, one per merchant")
    func facadeMerchantsNear() async throws {
        let (harness, engage, _, fixture, _) = try await start()
        let center = try ExploreDirectoryGenerator.denseCenter()
        let result = try await engage.merchants(near: center, radiusMeters: 5_000, page: PageRequest(limit: 50))
        #expect(result.isComplete)
        let direct = try fixture.directory.merchants(
            ExploreMerchantQuery(center: center, radius: ExploreRadius(meters: 5_000), sort: .distance, page: PageRequest(limit: 50))
        )
        #expect(result.items.map(\.id) == direct.items.map(\.merchantID))
        #expect(result.items.allSatisfy { $0.providerID == .explore && ($0.distanceMeters ?? .infinity) <= 5_000 })
        #expect(!result.items.isEmpty)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("callback twins deliver the async results and errors; every operation publishes its event")
    func callbacksAndEvents() async throws {
        let (harness, engage, provider, _, _) = try await start()
        let names = Locked<[String]>([])
        let subscription = engage.events.subscribe(to: OperationEvent.self) { event in names.withLock { $0.append(event.name) } }
        let query = ExploreMerchantQuery(text: "coffee")
        let expected = try await provider.merchants(query)
        let viaCallback: Page<ExploreMerchant> = try await withCheckedThrowingContinuation { continuation in
            provider.merchants(query) { continuation.resume(with: $0.mapError { $0 as any Error }) }
        }
        #expect(viaCallback == expected)
        let territories: [String] = try await withCheckedThrowingContinuation { continuation in
            provider.territories { continuation.resume(with: $0.mapError { $0 as any Error }) }
        }
        #expect(!territories.isEmpty)
        let due: Bool = try await withCheckedThrowingContinuation { continuation in
            provider.isSyncDue { continuation.resume(with: $0.mapError { $0 as any Error }) }
        }
        #expect(due == (try await provider.isSyncDue()))
        let syncResult: Result<ExploreSyncOutcome, EngageError> = await withCheckedContinuation { continuation in
            provider.sync { continuation.resume(returning: $0) }
        }
        #expect(throws: EngageError.self) { try syncResult.get() }
        #expect(
            await eventually {
                let seen = names.withLock { $0 }
                return ["custom_success_merchants_explore", "custom_success_territories_explore", "custom_error_sync_explore"].allSatisfy(
                    seen.contains)
            })
        subscription.cancel()
        await engage.shutdown()
        await harness.stop()
    }

    @Test("a CTX gift card bought through the provider: sign-in, amount checked, paid, fulfilled, sealed; events published")
    func ctxPurchaseThroughTheProvider() async throws {
        let (harness, engage, provider, _, _) = try await start()
        let names = Locked<[String]>([])
        let subscription = engage.events.subscribe(to: OperationEvent.self) { event in names.withLock { $0.append(event.name) } }
        let ctx = try provider.giftCardSource(CTXGiftCards.self)
        #expect(provider.configuredGiftCardSources.contains(.ctx))
        try await ctx.requestCode(email: "ana@example.com")
        let code = try #require(harness.ctx.loginCode(for: "ana@example.com"))
        try await ctx.verify(email: "ana@example.com", code: code)
        #expect(try await ctx.isSignedIn())

        let merchant = try #require(harness.ctx.merchants.first { $0.merchant.isEnabled && $0.merchant.denominationsType == .fixed })
        let invalid = await #expect(throws: EngageError.self) {
            try await ctx.buyGiftCard(merchantID: merchant.merchant.id, fiatAmount: 26)
        }
        #expect(invalid?.code == .exploreGiftCardAmountInvalid)
        #expect(harness.ctx.purchaseCount == 0, "nothing invalid is sent")
        let amount = try #require(merchant.merchant.denominationValues.first)
        let card = try await ctx.buyGiftCard(merchantID: merchant.merchant.id, fiatAmount: amount)
        #expect(card.status == .unpaid)
        harness.ctx.markPaid(cardID: card.id, transactionID: "9c1f5e0a7b")
        harness.clock.advance(by: .seconds(60))
        let delivered = try await ctx.waitForGiftCard(id: card.id)
        #expect(delivered.status == .fulfilled)
        // The wallet finds the payment in its history and asks what it bought.
        #expect(try await ctx.giftCard(transactionID: "9c1f5e0a7b").id == card.id)
        let unknown = await #expect(throws: EngageError.self) { try await ctx.giftCard(transactionID: "another-transaction") }
        #expect(unknown?.httpStatus == 404)
        // A hostile id is only a query value (encoded); an empty one is refused before anything is sent.
        let hostile = await #expect(throws: EngageError.self) { try await ctx.giftCard(transactionID: "../../etc/passwd?txid=x&") }
        #expect(hostile?.httpStatus == 404)
        let empty = await #expect(throws: EngageError.self) { try await ctx.giftCard(transactionID: "") }
        #expect(empty?.code == .invalidInput)
        #expect(try await provider.storedGiftCards().map(\.id) == [card.id])
        #expect(
            await eventually {
                let seen = names.withLock { $0 }
                return [
                    "custom_success_ctx_verify_explore", "custom_error_ctx_buy_gift_card_explore",
                    "custom_success_ctx_buy_gift_card_explore",
                    "custom_success_ctx_wait_for_gift_card_explore", "custom_success_ctx_gift_cards_by_txid_explore",
                ].allSatisfy(seen.contains)
            })
        // The user deletes their account: the session and the purchased card are forgotten.
        let reset = try await engage.reset()
        #expect(reset.succeeded.contains(.explore) && reset.failures[.explore] == nil)
        #expect(try await provider.storedGiftCards().isEmpty)
        #expect(try await !ctx.isSignedIn())
        #expect(await eventually { names.withLock { $0.contains("custom_success_reset_explore") } })
        subscription.cancel()
        await engage.shutdown()
        await harness.stop()
    }

    @Test("without a CTX configuration the gift-card operations are .notConfigured")
    func ctxNotConfigured() async throws {
        let harness = try await ExploreFeedHarness()
        let (engage, provider) = try await harness.start(harness.exploreConfiguration { $0.giftCards[CTXGiftCards.self] = nil })
        #expect(!provider.configuredGiftCardSources.contains(.ctx))
        let error = #expect(throws: EngageError.self) { try provider.giftCardSource(CTXGiftCards.self) }
        #expect(error?.code == .notConfigured)
        await engage.shutdown()
        await harness.stop()
    }

    #if PiggyCards
        @Test("a PiggyCards order through the provider: sign-up, OTP, catalogue, order with the 1.5 % fee, delivery, sealed cards")
        func piggyCardsOrderThroughTheProvider() async throws {
            let (harness, engage, provider, _, _) = try await start()
            let piggy = try provider.giftCardSource(PiggyCardsGiftCards.self)
            try await piggy.signUp(firstName: "Rui", lastName: "Costa", email: "rui@example.com", country: "US")
            try await piggy.verify(otp: try #require(harness.piggyCards.otp(for: "rui@example.com")))
            let brand = try #require(try await piggy.brands(country: "US").first)
            let product = try #require(try await piggy.giftCards(country: "US", brandID: brand.id).first)
            let denomination = try #require(product.denominationValues.first ?? product.minDenomination)
            let order = try await piggy.buyGiftCard(product: product, denomination: denomination, recipientEmail: "rui@example.com")
            let quote = order.quote
            #expect(quote.serviceFeeMinorUnits > 0)
            #expect(quote.totalMinorUnits == quote.faceValueMinorUnits - quote.discountMinorUnits + quote.serviceFeeMinorUnits)
            harness.piggyCards.markPaid(orderID: order.id)
            harness.clock.advance(by: .seconds(60))
            let details = try await piggy.waitForOrder(id: order.id)
            #expect(details.status == .complete)
            #expect(try await provider.storedGiftCards().contains { $0.provider == .piggyCards })
            await engage.shutdown()
            await harness.stop()
        }
    #endif
}
