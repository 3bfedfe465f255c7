@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageWarply
import Foundation
import Observation
import EngageTestTraits
import Testing
import WarplyEmulator

/// `warply.wallet`: an observable wallet that fills on refresh, follows logins and redemptions made
/// through any call, and empties at logout. End to end against the emulator.
@MainActor
@Suite(.bounded) struct WarplyWalletModelTests {
    @Test func theWalletFollowsLoginRedemptionAndLogout() async throws {
        guard #available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *) else { return }  // Observation
        let harness = try await WarplyHarness()
        defer { Task { await harness.stop() } }
        let (engage, warply) = try await harness.startProvider()
        let wallet = warply.wallet
        #expect(warply.wallet === wallet)

        // A guest: the public campaigns, no points, no coupons.
        await wallet.refresh()
        #expect(wallet.lastError == nil && wallet.points == nil && wallet.activeCoupons.isEmpty)
        #expect(!wallet.activeCampaigns.isEmpty && wallet.lastRefreshed == harness.clock.now && !wallet.isRefreshing)

        // A login through the facade refreshes the wallet without the app asking.
        _ = try await engage.logIn(UserIdentity(userID: "maria", email: "maria@example.gr"))
        #expect(await waitUntil { wallet.points != nil && !wallet.activeCoupons.isEmpty })
        let profile = try await warply.profile()
        #expect(wallet.points == profile.points)
        let coupons = try await warply.coupons()
        #expect(wallet.activeCoupons == coupons.active && wallet.redeemedCoupons == coupons.redeemed)

        // A redemption: the observers of the coupons are told, and the wallet shows the new coupon and balance.
        let changed = TestGate()
        withObservationTracking {
            _ = wallet.activeCoupons
        } onChange: {
            changed.open()
        }
        let set = try #require(WarplyE2E.soldOutAndAvailableSets(harness.emulator).available.sorted().first)
        let before = (points: try #require(wallet.points), active: wallet.activeCoupons.count)
        _ = try await warply.redeemCoupon(productUUID: set)
        await changed.wait()
        #expect(await waitUntil { wallet.activeCoupons.count == before.active + 1 })
        #expect(wallet.points == (try await warply.profile()).points)

        // Logout empties the user's part at once; the campaigns stay until the next refresh.
        _ = try await engage.logOut()
        #expect(await waitUntil { wallet.points == nil })
        #expect(wallet.activeCoupons.isEmpty && wallet.redeemedCoupons.isEmpty && !wallet.activeCampaigns.isEmpty)
        await engage.shutdown()
    }

    @Test("the iOS 16 form: updates delivers the wallet after each change, filled by a login and emptied by a logout")
    func updatesFollowTheWallet() async throws {
        let harness = try await WarplyHarness()
        defer { Task { await harness.stop() } }
        let (engage, warply) = try await harness.startProvider()
        let wallet = warply.wallet
        var updates = wallet.updates.makeAsyncIterator()
        #expect(await updates.next() == wallet.snapshot)

        _ = try await engage.logIn(UserIdentity(userID: "maria", email: "maria@example.gr"))
        var filled: WarplyWallet.Snapshot?
        while filled == nil, let snapshot = await updates.next() {
            if snapshot.points != nil, !snapshot.activeCoupons.isEmpty, !snapshot.isRefreshing { filled = snapshot }
        }
        #expect(filled?.points == (try await warply.profile()).points)
        #expect(filled?.activeCoupons == (try await warply.coupons()).active)

        _ = try await engage.logOut()
        var emptied: WarplyWallet.Snapshot?
        while emptied == nil, let snapshot = await updates.next() {
            if snapshot.points == nil { emptied = snapshot }
        }
        #expect(emptied?.activeCoupons.isEmpty == true && emptied?.redeemedCoupons.isEmpty == true)
        await engage.shutdown()
    }

    @Test("engage.warply.wallet is there before the providers started, fills once Warply runs, and is warply.wallet")
    func theFacadesWalletIsReadBeforeTheStart() async throws {
        let harness = try await WarplyHarness()
        defer { Task { await harness.stop() } }
        let environment = RegistryEnvironment(clock: harness.clock, random: SeededRandomSource(seed: 9), secretStore: InMemorySecretStore())
        // Returns at once: the provider starts in the background.
        let engage = try Engage(configuration: harness.configuration(harness.warplyConfiguration()), environment: environment)
        let wallet = engage.warply.wallet
        #expect(engage.warply.wallet === wallet && wallet.points == nil && wallet.activeCampaigns.isEmpty)
        await wallet.refresh()  // waits for the start, then fetches
        #expect(wallet.lastError == nil && !wallet.activeCampaigns.isEmpty)
        let warply = try await engage.provider(WarplyProvider.self)
        #expect(warply.wallet === wallet)
        // It follows the provider's calls like the provider's own wallet.
        try await warply.logIn(deiEmail: "maria@example.gr")
        #expect(await waitUntil { wallet.points != nil })
        await engage.shutdown()
    }

    @Test("without Warply's section the facade's wallet says so in lastError, and stays empty")
    func theFacadesWalletWithoutWarply() async throws {
        var configuration = EngageConfiguration.preset(.testing, appID: "org.engagekit.warply-tests")
        configuration.storage = .inMemory
        let engage = try Engage(configuration: configuration, environment: RegistryEnvironment(secretStore: InMemorySecretStore()))
        let wallet = engage.warply.wallet
        await wallet.refresh()
        #expect(wallet.lastError?.code == .notConfigured && wallet.points == nil && wallet.activeCampaigns.isEmpty)
        await engage.shutdown()
    }

    @Test func aFailedFetchKeepsWhatWasShownAndSaysWhy() async throws {
        let harness = try await WarplyHarness()
        defer { Task { await harness.stop() } }
        let (engage, warply) = try await harness.loggedIn()
        let wallet = warply.wallet
        await wallet.refresh()
        let shown = (points: wallet.points, coupons: wallet.activeCoupons, campaigns: wallet.activeCampaigns)
        #expect(shown.points != nil && wallet.lastError == nil)

        // The backend answers garbage to every request made with the user's token.
        harness.host.faults.inject(
            FaultRule(.malformedBody, emulatorID: "warply", path: WarplyPaths.authenticatedContext, trigger: .always))
        await wallet.refresh()
        #expect(wallet.lastError != nil && !wallet.isRefreshing)
        #expect(wallet.points == shown.points && wallet.activeCoupons == shown.coupons && wallet.activeCampaigns == shown.campaigns)
        await engage.shutdown()
    }

    @Test func concurrentRefreshesShareOneRound() async throws {
        let harness = try await WarplyHarness()
        defer { Task { await harness.stop() } }
        let (engage, warply) = try await harness.loggedIn()
        let wallet = warply.wallet
        let sentBefore = harness.host.journal.entries(for: "warply").count
        async let first: Void = wallet.refresh()
        async let second: Void = wallet.refresh()
        async let third: Void = wallet.refresh()
        _ = await (first, second, third)
        let sent = harness.host.journal.entries(for: "warply").count - sentBefore
        await wallet.refresh()
        let oneRound = harness.host.journal.entries(for: "warply").count - sentBefore - sent
        #expect(sent == oneRound && oneRound > 0)
        await engage.shutdown()
    }
}
