@_spi(EngageProvider) @testable import Engage
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
#if PiggyCards
    @_spi(EngageProvider) @testable import EngageExplorePiggyCards
#endif

/// `merchantDetails(id:)` end to end: the directory's merchant with the CTX emulator's live view merged
/// in over a real socket, and every fallback.
@Suite("Explore merchant details: CTX's live data merged into the directory's merchant", .bounded)
struct ExploreMerchantDetailsTests {
    /// A provider over the shared directory file, with CTX gift cards on (or `adjust`ed).
    private func start(
        _ adjust: @escaping (inout ExploreConfiguration) -> Void = { _ in }
    ) async throws -> (ExploreFeedHarness, Engage, ExploreProvider, BruteForceDirectory) {
        let harness = try await ExploreFeedHarness()
        let (fixture, brute) = try ExploreFixture.shared()
        let (engage, provider) = try await harness.start(
            harness.exploreConfiguration {
                $0.feedURL = nil
                $0.databasePath = fixture.path
                adjust(&$0)
            })
        return (harness, engage, provider, brute)
    }

    /// Directory merchants with a CTX offer (and, when `withOtherOffer`, a second provider's too).
    private func ctxMerchants(_ provider: ExploreProvider) async throws -> [ExploreMerchant] {
        try await provider.merchants(ExploreMerchantQuery(giftCardProviders: [.ctx], page: PageRequest(limit: 200))).items
    }

    @Test("CTX's enabled flag, denominations and discount replace the directory's; the directory's merchant is kept as it is")
    func merged() async throws {
        let (harness, engage, provider, _) = try await start()
        let merchants = try await ctxMerchants(provider)
        let fixed = try #require(merchants.first)
        let disabled = try #require(merchants.dropFirst().first)
        let fixedID = try #require(ExploreMerchantDetails.ctxID(of: fixed))
        let disabledID = try #require(ExploreMerchantDetails.ctxID(of: disabled))
        harness.ctx.setMerchant(
            CTXEmulatorMerchant(
                CTXEmulatorMerchant.Record(
                    id: fixedID, name: fixed.name, savingsBasisPoints: 2_600, denominationsType: .fixed, denominationValues: [25, 50])))
        harness.ctx.setMerchant(
            CTXEmulatorMerchant(
                CTXEmulatorMerchant.Record(
                    id: disabledID, name: disabled.name, isEnabled: false, savingsBasisPoints: -300, denominationsType: .minMax,
                    denominationValues: [10, 200]),
                usesLegacySpelling: true))

        let details = try #require(try await provider.merchantDetails(id: fixed.merchantID))
        #expect(details.liveData == .ctx && details.liveDataError == nil)
        #expect(details.isEnabled)
        #expect(details.denominationsType == .fixed)
        #expect(details.denominations == .fixed([25, 50]))
        // 26 % is more than any offer the generator writes (at most 25 %), so CTX's discount wins.
        #expect(details.discountBasisPoints == 2_600)
        #expect(details.merchant == (try await provider.merchant(id: fixed.merchantID)))
        #expect(details.ctx?.id == fixedID)

        let off = try #require(try await provider.merchantDetails(id: disabled.merchantID))
        #expect(off.liveData == .ctx && !off.isEnabled)
        #expect(off.denominations == .range(minimum: 10, maximum: 200))
        // A CTX surcharge cannot lower a better offer of another provider: the best offer wins.
        let others = disabled.giftCardOffers.filter { $0.provider != .ctx }.map(\.savingsBasisPoints)
        #expect(off.discountBasisPoints == (others + [-300]).max())
        #expect(harness.ctx.loginCount == 0, "merchant details need no CTX sign-in")
        await engage.shutdown()
        await harness.stop()
    }

    @Test("without a CTX offer, with CTX off, or when CTX fails, the directory's values stand and say why")
    func fallbacks() async throws {
        let (harness, engage, provider, _) = try await start()
        // A merchant CTX does not know answers 404: unavailable, with the error.
        let unknown = try #require(try await ctxMerchants(provider).first)
        let missing = try #require(try await provider.merchantDetails(id: unknown.merchantID))
        #expect(missing.liveData == .unavailable && missing.liveDataError?.httpStatus == 404)
        #expect(missing.isEnabled && missing.denominations == nil && missing.ctx == nil)
        #expect(missing.discountBasisPoints == unknown.discountBasisPoints)
        #expect(
            missing.denominationsType
                == (unknown.giftCardOffers.first { $0.provider == .ctx }?.denominationsType ?? unknown.denominationsType))

        // No CTX offer: CTX is not asked. (Every generated merchant has CTX or PiggyCards; the
        // PiggyCards-only ones are listed with the trait.)
        let requestsBefore = harness.host.journal.entries(for: "ctx").count
        let listed = try await provider.merchants(ExploreMerchantQuery(page: PageRequest(limit: 1_000))).items
        let withoutCTX = listed.filter { ExploreMerchantDetails.ctxID(of: $0) == nil }
        #if PiggyCards
            #expect(!withoutCTX.isEmpty)
        #endif
        for merchant in withoutCTX.prefix(3) {
            let notSold = try #require(try await provider.merchantDetails(id: merchant.merchantID))
            #expect(notSold.liveData == .notSoldByCTX && notSold.ctx == nil && notSold.discountBasisPoints == merchant.discountBasisPoints)
        }
        #expect(harness.host.journal.entries(for: "ctx").count == requestsBefore)

        // A server error: unavailable, the call still answers.
        harness.host.faults.inject(FaultRule(.status(503), emulatorID: "ctx", path: "/merchants/*"))
        let failing = try #require(try await provider.merchantDetails(id: unknown.merchantID))
        #expect(failing.liveData == .unavailable && failing.liveDataError?.isRetryable == true)

        #expect(try await provider.merchantDetails(id: "no-such-merchant") == nil)
        await engage.shutdown()
        await harness.stop()

        let (offHarness, offEngage, offProvider, _) = try await start { $0.giftCards.sections[CTXGiftCards.configurationKey] = nil }
        let somewhere = try #require(try await ctxMerchants(offProvider).first)
        #expect(try await offProvider.merchantDetails(id: somewhere.merchantID)?.liveData == .ctxOff)
        #expect(offHarness.host.journal.entries(for: "ctx").isEmpty)
        await offEngage.shutdown()
        await offHarness.stop()
    }

    @Test("the callback twin delivers the same details")
    func callbackTwin() async throws {
        let (harness, engage, provider, _) = try await start()
        let merchant = try #require(try await ctxMerchants(provider).first)
        let outcome = await withCheckedContinuation { continuation in
            provider.merchantDetails(id: merchant.merchantID) { continuation.resume(returning: $0) }
        }
        #expect(try outcome.get()?.merchant == merchant)
        await engage.shutdown()
        await harness.stop()
    }
}
