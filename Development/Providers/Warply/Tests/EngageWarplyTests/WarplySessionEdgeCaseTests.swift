// End-to-end tests of operations at the edges of the session and the shared state: the provider
// against the emulator over a real socket.
@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageWarply
import Foundation
import EngageTestTraits
import Testing
import WarplyEmulator

@Suite("Warply session and state edge cases end to end", .bounded)
struct WarplySessionEdgeCaseTests {
    @Test("campaigns() with a stored session whose refresh is rejected returns the logged-out campaigns instead of failing")
    func campaignsAfterRejectedRefresh() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn()
        let recorder = WarplyEventRecorder(engage.events)
        harness.emulator.revokeAllRefreshTokens()
        harness.clock.advance(by: .seconds(3_700))  // the access token expired: the next bearer call refreshes
        #expect(try await warply.isLoggedIn())  // still stored, not yet known to be dead

        let campaigns = try await warply.campaigns()
        #expect(!campaigns.isEmpty)
        #expect(try await warply.isLoggedIn() == false)  // the rejected refresh ended the session
        #expect(warply.state.carouselList.isEmpty)
        #expect(warply.state.allCampaignList == campaigns)
        // Exactly what the logged-out flow gives (basic campaigns, sorted, unfiltered).
        #expect(try await warply.campaigns() == campaigns)
        let operations = await recorder.settled().compactMap { $0 as? OperationEvent }.filter { $0.operation == "campaigns" }
        #expect(operations.map(\.succeeded) == [true, true])
        await engage.shutdown()
        await harness.stop()
    }

    @Test("campaigns() whose personalized request stays unauthorized returns the logged-out campaigns and keeps the tokens")
    func campaignsWhenBearerRefused() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn()
        harness.host.faults.inject(FaultRule(.status(401), emulatorID: "warply", method: "POST", path: WarplyPaths.authenticatedContext))

        let campaigns = try await warply.campaigns()
        #expect(!campaigns.isEmpty)
        #expect(try await warply.isLoggedIn())  // a refused request is not a rejected refresh
        // Exactly what the logged-out flow gives (basic campaigns, sorted, unfiltered).
        try await warply.logOut()
        #expect(try await warply.campaigns() == campaigns)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("campaigns() still fails for errors that do not mean a dead session")
    func campaignsOtherErrorsStillFail() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn()
        harness.host.faults.inject(FaultRule(.status(500), emulatorID: "warply", method: "POST", path: WarplyPaths.authenticatedContext))
        await #expect { try await warply.campaigns() } throws: { ($0 as? EngageError)?.httpStatus == 500 }
        await engage.shutdown()
        await harness.stop()
    }

    @Test("coupons() returns the lists it fetched, even while other code rewrites the shared state")
    func couponsReturnsItsOwnLists() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn()
        let expected = try await warply.coupons()
        #expect(!expected.active.isEmpty && !expected.redeemed.isEmpty)

        // Another writer empties the redeemed list as fast as it can while coupons() runs.
        let stop = Locked(false)
        let writer = DispatchGroup()
        let state = warply.state
        DispatchQueue(label: "warply-tests.state-writer").async(group: writer) {
            while !stop.value { state.setOldCouponList([]) }
        }
        var mismatches = 0
        for _ in 0..<20 {
            if try await warply.coupons() != expected { mismatches += 1 }
        }
        stop.withLock { $0 = true }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            writer.notify(queue: .global()) { continuation.resume() }
        }
        #expect(mismatches == 0)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("campaignURL and campaignParameters fill web_id with the configured merchant id, as the seed does")
    func webIDIsTheMerchantID() async throws {
        let harness = try await WarplyHarness(emulatorConfiguration: .init(merchantIDs: ["merchant-77"]))
        let (engage, warply) = try await harness.loggedIn(harness.warplyConfiguration { $0.merchantID = "merchant-77" })
        let campaign = WarplyCampaign(
            sessionUUID: "s-1", indexURL: #"https:\/\/x.gr\/c\/{web_id}\/{appUUID}\/{sessionUuid}?lan={language}&k={api_key}"#
        )
        let url = try #require(try await warply.campaignURL(for: campaign))
        #expect(url.absoluteString == "https://x.gr/c/merchant-77/\(WarplyHarness.appUUID)/s-1?lan=el&k=")
        let parameters = try await warply.campaignParameters(for: campaign)
        #expect(parameters.values["web_id"] == "merchant-77")

        // The parameters hold the session: no printed form shows a token.
        let tokens = try #require(try await warply.tokens.currentTokens())
        var dumped = ""
        dump(parameters, to: &dumped)
        for text in [parameters.description, parameters.debugDescription, "\([parameters])", dumped] {
            #expect(!text.contains(tokens.accessToken))
            #expect(!text.contains(parameters.values["client_secret"] ?? "-"))
        }
        await engage.shutdown()
        await harness.stop()
    }

    @Test("campaignURL, campaignParameters, ccmsURL and isLoggedIn are local: they publish no operation event")
    func localOperationsPublishNothing() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn()
        let campaign = try #require(try await warply.campaigns().first)
        let recorder = WarplyEventRecorder(engage.events)
        _ = try await warply.campaignURL(for: campaign)
        _ = try await warply.campaignParameters(for: campaign)
        _ = try await warply.ccmsURL(for: WarplyContextualOffer(loyaltyCampaignID: "lc-1", sessionID: campaign.sessionUUID))
        _ = try await warply.isLoggedIn()
        #expect(await recorder.settled().compactMap { $0 as? OperationEvent }.isEmpty)
        await engage.shutdown()
        await harness.stop()
    }
}
