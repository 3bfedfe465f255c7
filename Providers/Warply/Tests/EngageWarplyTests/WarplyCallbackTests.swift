// The completion-handler forms of the Warply operations, end to end. That every public async operation
// has its twin is checked for every provider by .ci/check-callback-twins.
@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import Engage
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) import EngageTesting
@_spi(EngageProvider) import EngageWarply
import Foundation
import Logging
import EngageTestTraits
import Testing
import WarplyEmulator

/// Runs a completion-handler call and returns what it delivered.
private func delivered<Value: Sendable>(
    _ start: (@escaping @Sendable (Result<Value, EngageError>) -> Void) -> any EngageCancellable
) async -> Result<Value, EngageError> {
    await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, EngageError>, Never>) in
        _ = start { result in continuation.resume(returning: result) }
    }
}

@Suite("Warply completion handlers end to end", .bounded)
struct WarplyCallbackTests {
    @Test("login, campaigns, coupons, redeem and add card through their completion handlers")
    func callbacksSucceed() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()

        let login = await delivered { warply.deiLogin(email: "maria@example.gr", completion: $0) }
        #expect((try? login.get()) != nil)
        #expect(try await delivered { warply.isLoggedIn(completion: $0) }.get())

        let campaigns = try await delivered { warply.campaigns(completion: $0) }.get()
        #expect(campaigns.count == 10)
        #expect(campaigns == warply.state.campaignList)

        let coupons = try await delivered { warply.coupons(completion: $0) }.get()
        #expect(coupons.active.count == 4 && coupons.redeemed.count == 4)

        let set = try #require(WarplyE2E.soldOutAndAvailableSets(harness.emulator).available.sorted().first)
        let stock = try #require(harness.emulator.availability(ofCouponSet: set))
        let redemption = try await delivered { warply.redeemCoupon(productUUID: set, completion: $0) }.get()
        #expect(redemption.couponSetUUID == set)
        #expect(harness.emulator.availability(ofCouponSet: set) == stock - 1)

        let year = Calendar(identifier: .gregorian).component(.year, from: harness.clock.now) + 3
        let card = try await delivered {
            warply.addCard(
                WarplyNewCard(number: "5555555555554444", issuer: "MC", holder: "A B", expirationMonth: 4, expirationYear: year),
                completion: $0)
        }.get()
        #expect(card.maskedNumber == "**** **** **** 4444")
        let cards = try await delivered { warply.cards(completion: $0) }.get()
        #expect(cards.map(\.token) == [card.token])

        let merchants = try await delivered { warply.merchants(WarplyMerchantQuery(tags: ["coffee"]), completion: $0) }.get()
        #expect(merchants.count == 2)
        let offers = try await delivered { warply.offers(OfferQuery(), completion: $0) }.get()
        #expect(offers.contains { $0.kind == .coupon })

        let logout = await delivered { warply.logout(completion: $0) }
        #expect((try? logout.get()) != nil)
        #expect(try await warply.isLoggedIn() == false)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("failing operations deliver .failure with the EngageError")
    func callbacksFail() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        let badLogin = await delivered { warply.deiLogin(email: "nobody", completion: $0) }
        guard case let .failure(loginError) = badLogin else {
            Issue.record("A login with a malformed email succeeded")
            return
        }
        #expect(loginError.code == .invalidInput)
        #expect(loginError.providerID == .warply)

        let noSession = await delivered { warply.coupons(completion: $0) }
        guard case let .failure(sessionError) = noSession else {
            Issue.record("coupons() without a session succeeded")
            return
        }
        #expect(sessionError.code == .unauthorized)

        try await warply.deiLogin(email: "maria@example.gr")
        let soldOut = try #require(WarplyE2E.soldOutAndAvailableSets(harness.emulator).soldOut.first)
        let redeem = await delivered { warply.redeemCoupon(productUUID: soldOut, completion: $0) }
        guard case let .failure(redeemError) = redeem else {
            Issue.record("Redeeming a sold-out set succeeded")
            return
        }
        #expect(redeemError.code == .warplyCouponNotRedeemable)

        let unknown = await delivered { warply.singleCampaign(sessionUUID: "nope", completion: $0) }
        guard case let .failure(unknownError) = unknown else {
            Issue.record("An unknown session was found")
            return
        }
        #expect(unknownError.code == .warplyRequestRejected)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("completions run on the main actor, where main-actor state is used without assumeIsolated")
    func completionsOnMainActor() async throws {
        let harness = try await WarplyHarness()
        let configuration = try harness.configuration(harness.warplyConfiguration())
        let engage = try await Engage.start(
            configuration: configuration,
            environment: RegistryEnvironment(
                clock: harness.clock, random: SeededRandomSource(seed: 9), secretStore: InMemorySecretStore(),
                logger: Logger(label: "warply-tests")
            )
        )
        let warply = try await engage.provider(WarplyProvider.self)
        let screen = CategoriesScreen()
        // On Linux the main queue may be drained by a thread other than the first one, so the test asks
        // the queue, not `Thread.isMainThread`.
        let key = DispatchSpecificKey<String>()
        DispatchQueue.main.setSpecific(key: key, value: "main")
        let onMainQueue = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            warply.merchantCategories { result in
                // Typed `@MainActor`: the screen's state is set directly, as UI code would.
                screen.categoryCount = (try? result.get().count) ?? -1
                continuation.resume(returning: DispatchQueue.getSpecific(key: key) == "main")
            }
        }
        #expect(onMainQueue)
        #expect(await screen.categoryCount > 0)
        await engage.shutdown()
        await harness.stop()
    }
}

/// Main-actor state of the kind a view model holds.
@MainActor
private final class CategoriesScreen {
    var categoryCount = 0
}
