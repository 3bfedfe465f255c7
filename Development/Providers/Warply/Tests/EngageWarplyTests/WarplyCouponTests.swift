// End-to-end tests of the coupon operations: the provider against the emulator over a real socket.
@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageWarply
import Foundation
import EngageTestTraits
import Testing
import WarplyEmulator

@Suite("Warply coupons end to end", .bounded)
struct WarplyCouponTests {
    static let email = "maria@example.gr"

    @Test("coupons(): active soonest-expiring first, redeemed newest first, kept in the state, coupons_fetched published")
    func couponLists() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn(email: Self.email)
        let recorder = WarplyEventRecorder(engage.events)
        let lists = try await warply.coupons()

        let stored = harness.emulator.coupons(forEmail: Self.email)
        #expect(stored.count == 8)
        #expect(lists.active.count == stored.filter { $0.isActive }.count)
        #expect(lists.redeemed.count == stored.filter { $0.isRedeemed }.count)
        #expect(lists.active.count == 4 && lists.redeemed.count == 4)
        #expect(lists.active.allSatisfy { $0.isActive })
        #expect(lists.redeemed.allSatisfy { $0.isRedeemed })
        // The emulator sends them unsorted; the order is checked against the parsed dates.
        #expect(stored.filter { $0.isActive }.map(\.id) != lists.active.map(\.id))
        let expirations = lists.active.compactMap { $0.expiration?.date }
        #expect(expirations.count == 4)
        #expect(WarplyE2E.isAscending(expirations))
        #expect(Set(expirations).count == 4)
        let redeemedDates = lists.redeemed.compactMap { $0.redeemedDate?.date }
        #expect(redeemedDates.count == 4)
        #expect(WarplyE2E.isDescending(redeemedDates))
        #expect(Set(redeemedDates).count == 4)
        #expect(Set(lists.active.map(\.id) + lists.redeemed.map(\.id)) == Set(stored.map(\.id)))
        // Details were asked for and arrived.
        #expect(lists.active.allSatisfy { $0.couponSet != nil && $0.merchant != nil })
        let sent = try #require(WarplyE2E.contextBodies(harness, WarplyPaths.authenticatedContext).last)
        #expect(sent.action == WarplyWire.Action.userCoupons)
        #expect(sent.strings("details") == ["merchant", "redemption"])

        #expect(warply.state.couponList == lists.active)
        #expect(warply.state.oldCouponList == lists.redeemed)
        let fetched = await recorder.settled().compactMap { $0 as? WarplyCouponsRetrievedEvent }
        #expect(fetched.map(\.activeCount) == [4])
        #expect(fetched.map(\.redeemedCount) == [4])
        #expect(fetched.first?.name == "coupons_fetched")
        // The code never shows in the descriptions.
        for coupon in lists.active {
            let code = try #require(coupon.code)
            #expect(!coupon.description.contains(code))
        }
        await engage.shutdown()
        await harness.stop()
    }

    @Test("universalCoupons are split and sorted the same way")
    func universalCoupons() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn(email: Self.email)
        let lists = try await warply.universalCoupons()
        #expect(lists.active.count == 4 && lists.redeemed.count == 4)
        #expect(WarplyE2E.isAscending(lists.active.compactMap { $0.expiration?.date }))
        #expect(WarplyE2E.isDescending(lists.redeemed.compactMap { $0.redeemedDate?.date }))
        #expect(WarplyE2E.contextBodies(harness, WarplyPaths.authenticatedContext).map(\.action) == [WarplyWire.Action.universalCoupons])
        // universalCoupons does not touch the stored lists.
        #expect(warply.state.couponList.isEmpty)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("couponSets and availableCoupons mirror the emulator's catalogue and stock")
    func couponSetsAndAvailability() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        let sets = try await warply.couponSets()
        #expect(sets.map(\.uuid) == harness.emulator.couponSetUUIDs)
        #expect(sets.count == 8)
        #expect(warply.state.couponSetList == sets)
        #expect(sets.allSatisfy { $0.isActive && $0.isVisible && $0.points != nil && $0.expiration?.date != nil })
        let english = try await warply.couponSets(language: .english)
        #expect(english.map(\.uuid) == sets.map(\.uuid))
        #expect(english.map(\.name) != sets.map(\.name))

        let available = try await warply.availableCoupons()
        #expect(available.count == 8)
        for uuid in harness.emulator.couponSetUUIDs {
            #expect(available[uuid] == harness.emulator.availability(ofCouponSet: uuid))
        }
        #expect(available.values.contains(0))
        await engage.shutdown()
        await harness.stop()
    }

    @Test("validateCoupon: an owned active code is valid, a made-up one and a redeemed one are not")
    func validateCoupon() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn(email: Self.email)
        let stored = harness.emulator.coupons(forEmail: Self.email)
        let active = try #require(stored.first { $0.isActive })
        let activeCode = try #require(active.code)
        let valid = try await warply.validateCoupon(code: activeCode)
        #expect(valid.isValid)
        #expect(valid.couponSetUUID == active.couponSetUUID)
        #expect(valid.couponCode == activeCode)
        #expect(!valid.description.contains(activeCode))

        let madeUp = try await warply.validateCoupon(code: "MADEUP-ZZZZ99")
        #expect(!madeUp.isValid)
        #expect(madeUp.message?.isEmpty == false)

        let redeemed = try #require(stored.first { $0.isRedeemed }?.code)
        let used = try await warply.validateCoupon(code: redeemed)
        #expect(!used.isValid)
        let sent = WarplyE2E.contextBodies(harness, WarplyPaths.authenticatedContext).map { $0.string("coupon") }
        #expect(sent == [activeCode, "MADEUP-ZZZZ99", redeemed])

        // An empty code is refused before anything is sent.
        await #expect { try await warply.validateCoupon(code: "") } throws: { WarplyE2E.code($0) == .invalidInput }
        #expect(harness.requests(to: WarplyPaths.authenticatedContext).count == 3)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("redeemCoupon spends a coupon and the points, adds an active coupon and a negative points entry")
    func redeemCoupon() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn(email: Self.email)
        let sets = try await warply.couponSets()
        let available = WarplyE2E.soldOutAndAvailableSets(harness.emulator).available
        // The cheapest set still in stock.
        let set = try #require(sets.filter { available.contains($0.uuid) }.min { ($0.points ?? 0) < ($1.points ?? 0) })
        let cost = try #require(set.points)
        let stockBefore = try #require(harness.emulator.availability(ofCouponSet: set.uuid))
        let pointsBefore = try await warply.profile().points
        #expect(pointsBefore >= cost)
        let couponsBefore = try await warply.coupons()

        let redemption = try await warply.redeemCoupon(productUUID: set.uuid, merchantID: set.merchantUUID)
        let code = try #require(redemption.couponCode)
        #expect(redemption.couponSetUUID == set.uuid)
        #expect(redemption.redeemedAt?.date != nil)
        #expect(redemption.transactionID?.isEmpty == false)
        #expect(!redemption.description.contains(code))
        let sent = try #require(WarplyE2E.contextBodies(harness, WarplyPaths.authenticatedContext).last)
        #expect(sent.action == WarplyWire.Action.redeem)
        #expect(sent.string("product_uuid") == set.uuid)
        #expect(sent.string("merchant_id") == set.merchantUUID)

        // Stock: the emulator's and a later availableCoupons().
        #expect(harness.emulator.availability(ofCouponSet: set.uuid) == stockBefore - 1)
        #expect(try await warply.availableCoupons()[set.uuid] == stockBefore - 1)
        // Points: the profile on both sides.
        #expect(harness.emulator.profile(forEmail: Self.email)?.points == pointsBefore - cost)
        #expect(try await warply.profile().points == pointsBefore - cost)
        // A new active coupon with the redeemed code.
        let couponsAfter = try await warply.coupons()
        #expect(couponsAfter.active.count == couponsBefore.active.count + 1)
        #expect(couponsAfter.redeemed.count == couponsBefore.redeemed.count)
        let acquired = try #require(couponsAfter.active.first { $0.code == code })
        #expect(acquired.couponSetUUID == set.uuid)
        #expect(WarplyE2E.isAscending(couponsAfter.active.compactMap { $0.expiration?.date }))
        // A negative points entry, the newest.
        let history = try await warply.pointsHistory()
        let newest = try #require(history.first)
        #expect(newest.points == -cost)
        #expect(newest.source == "coupon")
        #expect(history.filter { $0.points == -cost }.count >= 1)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("redeeming a sold-out set throws warplyCouponNotRedeemable and changes nothing")
    func redeemSoldOut() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn(email: Self.email)
        let recorder = WarplyEventRecorder(engage.events)
        let soldOut = try #require(WarplyE2E.soldOutAndAvailableSets(harness.emulator).soldOut.first)
        let pointsBefore = try await warply.profile().points
        await #expect {
            try await warply.redeemCoupon(productUUID: soldOut)
        } throws: { error in
            let error = error as? EngageError
            return error?.code == .warplyCouponNotRedeemable && error?.message.contains("No coupons are left") == true
                && error?.recoverySuggestion != nil
        }
        #expect(harness.emulator.availability(ofCouponSet: soldOut) == 0)
        #expect(harness.emulator.profile(forEmail: Self.email)?.points == pointsBefore)
        #expect(harness.emulator.coupons(forEmail: Self.email).count == 8)

        // An unknown set is refused the same way.
        await #expect { try await warply.redeemCoupon(productUUID: "ffffffffffffffffffffffffffffffff") } throws: {
            WarplyE2E.code($0) == .warplyCouponNotRedeemable
        }
        #expect(await recorder.names().filter { $0 == "custom_error_redeem_coupon_loyalty" }.count == 2)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("a redemption whose answer is lost is sent once: one coupon and one charge, and an error for the caller")
    func redeemAnswerLost() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn(email: Self.email)
        let set = try #require(WarplyE2E.soldOutAndAvailableSets(harness.emulator).available.sorted().first)
        let stock = try #require(harness.emulator.availability(ofCouponSet: set))
        let points = try await warply.profile().points  // also warms up the kept-alive connection
        let sentBefore = harness.requests(to: WarplyPaths.authenticatedContext).count
        harness.host.faults.inject(
            FaultRule(
                .dropConnectionAfterHandling, emulatorID: "warply", method: "POST", path: WarplyPaths.authenticatedContext,
                trigger: .times(1)
            ))
        await #expect { try await warply.redeemCoupon(productUUID: set) } throws: { error in
            let code = WarplyE2E.code(error)
            return code == .network || code == .timeout
        }
        #expect(harness.requests(to: WarplyPaths.authenticatedContext).count == sentBefore + 1)
        #expect(harness.emulator.availability(ofCouponSet: set) == stock - 1)
        let charged = points - (harness.emulator.profile(forEmail: Self.email)?.points ?? points)
        let cost = try await warply.couponSets().first { $0.uuid == set }?.points
        #expect(charged == cost)
        #expect(harness.emulator.coupons(forEmail: Self.email).count == 9)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("redeeming without enough points is refused with the server's reason")
    func redeemWithoutPoints() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn(email: Self.email)
        let sets = try await warply.couponSets()
        let available = WarplyE2E.soldOutAndAvailableSets(harness.emulator).available
        let priciest = try #require(sets.filter { available.contains($0.uuid) }.max { ($0.points ?? 0) < ($1.points ?? 0) })
        let cost = try #require(priciest.points)
        // Spend until the user cannot afford the priciest set any more.
        var redemptions = 0
        while try await warply.profile().points >= cost, redemptions < 50,
            (harness.emulator.availability(ofCouponSet: priciest.uuid) ?? 0) > 0
        {
            _ = try await warply.redeemCoupon(productUUID: priciest.uuid)
            redemptions += 1
        }
        if (harness.emulator.availability(ofCouponSet: priciest.uuid) ?? 0) > 0 {
            await #expect { try await warply.redeemCoupon(productUUID: priciest.uuid) } throws: { error in
                let error = error as? EngageError
                return error?.code == .warplyCouponNotRedeemable && error?.message.contains("Not enough points") == true
            }
        }
        #expect(try await warply.profile().points >= 0)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("redeemedSupermarketHistory lists the redeemed supermarket coupons, newest first, with their total")
    func redeemedSupermarketHistory() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn(email: Self.email)
        let history = try await warply.redeemedSupermarketHistory()
        #expect(history.redeemedCoupons.count == 2)
        #expect(history.redeemedCoupons.allSatisfy { $0.isRedeemed && $0.couponSet?.couponSetType == "supermarket" })
        let dates = history.redeemedCoupons.compactMap { $0.redeemedDate?.date }
        #expect(dates.count == 2)
        #expect(WarplyE2E.isDescending(dates))
        let total = history.redeemedCoupons.compactMap { $0.discount.flatMap { Decimal(string: $0) } }.reduce(0, +)
        #expect(history.totalRedeemedValue == total)
        #expect(history.totalRedeemedValue == 20)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("coupon operations that need a session fail without one and send nothing")
    func couponsNeedSession() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        await #expect { try await warply.coupons() } throws: { WarplyE2E.code($0) == .unauthorized }
        await #expect { try await warply.redeemCoupon(productUUID: "abc") } throws: { WarplyE2E.code($0) == .unauthorized }
        await #expect { try await warply.validateCoupon(code: "ABC") } throws: { WarplyE2E.code($0) == .unauthorized }
        await #expect { try await warply.redeemedSupermarketHistory() } throws: { WarplyE2E.code($0) == .unauthorized }
        #expect(harness.requests(to: WarplyPaths.authenticatedContext).isEmpty)
        await engage.shutdown()
        await harness.stop()
    }
}
