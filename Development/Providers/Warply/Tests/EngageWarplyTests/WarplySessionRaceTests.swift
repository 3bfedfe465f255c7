// End-to-end tests of answers that arrive after the session they were asked for has ended: the
// provider against the emulator over a real socket, one answer held back while the app logs out.
@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageWarply
import Foundation
import HTTPTypes
import EngageTestTraits
import Testing
import WarplyEmulator

@Suite("Warply answers that arrive after a logout", .bounded(deadline: .seconds(120)), .bounded)
struct WarplySessionRaceTests {
    @Test(
        "An answer asked for before a logout does not fill the state the next user sees",
        arguments: [WarplyWire.Action.userCoupons, WarplyWire.Action.couponSets]
    )
    func lateAnswerAfterLogout(action: String) async throws {
        let harness = try await WarplyHarness()
        let transport = HoldingTransport(action: action)
        let (engage, warply) = try await harness.loggedIn(transport: transport)
        transport.arm()
        let fetch = Task { () -> Int in
            if action == WarplyWire.Action.userCoupons {
                return try await warply.coupons().active.count
            }
            return try await warply.couponSets().count
        }
        await transport.arrived.wait()
        try await warply.logOut()
        transport.release.open()
        // The caller who asked still gets the answer...
        #expect(try await fetch.value > 0)
        // ...but the shared state, now the next user's, stays empty.
        #expect(warply.state.couponList.isEmpty)
        #expect(warply.state.oldCouponList.isEmpty)
        #expect(warply.state.couponSetList.isEmpty)
        await engage.shutdown()
    }

    @Test("A device registration that answers after a reset is not kept: the new device registers as itself")
    func registrationAfterReset() async throws {
        let harness = try await WarplyHarness(signing: .deviceRegistration)
        let transport = HoldingTransport(pathSuffix: WarplyPaths.register)
        let (engage, warply) = try await harness.startProvider(harness.warplyConfiguration { $0.deviceID = nil }, transport: transport)
        try await warply.reset()
        let registrations = harness.emulator.registrationCount
        transport.arm()
        // The next signed call registers the device; its answer is held back while the app resets again.
        let early = Task { try await warply.campaigns() }
        await transport.arrived.wait()
        try await warply.reset()
        let newDevice = warply.deviceID
        transport.release.open()
        _ = try? await early.value
        _ = try await warply.campaigns()
        #expect(harness.emulator.registrationCount == registrations + 2)
        #expect(harness.requests(to: WarplyPaths.register).last?.header("unique-device-id") == newDevice)
        await engage.shutdown()
    }

    @MainActor
    @Test("A wallet refresh that answers after a logout does not show the previous user's points or coupons")
    func walletRefreshAfterLogout() async throws {
        guard #available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *) else { return }  // Observation
        let harness = try await WarplyHarness()
        let transport = HoldingTransport(action: WarplyWire.Action.userCoupons)
        let (engage, warply) = try await harness.loggedIn(transport: transport)
        let wallet = warply.wallet
        await wallet.refresh()
        #expect(await waitUntil { !wallet.activeCoupons.isEmpty && !wallet.isRefreshing })
        // A refresh may join the login's own, sent before: `holdAnswer` then asks again.
        let refresh = await transport.holdAnswer { await wallet.refresh() }
        try await warply.logOut()
        #expect(await waitUntil { wallet.activeCoupons.isEmpty })
        transport.release.open()
        await refresh.value
        #expect(wallet.activeCoupons.isEmpty)
        #expect(wallet.redeemedCoupons.isEmpty)
        #expect(wallet.points == nil)
        await engage.shutdown()
    }

    @Test("An answer that arrives without a logout in between is stored as before")
    func answerWithoutLogoutIsStored() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn()
        let lists = try await warply.coupons()
        #expect(warply.state.couponList == lists.active)
        #expect(warply.state.oldCouponList == lists.redeemed)
        await engage.shutdown()
    }
}
