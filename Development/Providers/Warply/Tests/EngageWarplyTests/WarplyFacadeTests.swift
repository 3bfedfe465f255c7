// End-to-end tests of Warply behind the Engage facade (offers, merchants, content, identity,
// tracking) and of the operation events every Warply operation publishes.
@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageWarply
import Foundation
import EngageTestTraits
import Testing
import WarplyEmulator

@Suite("Warply behind the Engage facade, end to end", .bounded)
struct WarplyFacadeTests {
    @Test("engage.offers contains Warply campaign offers and coupon-set offers")
    func offers() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        let result = try await engage.offers(OfferQuery())
        #expect(result.isComplete)
        #expect(result.report.succeeded == [.warply])
        #expect(result.items.allSatisfy { $0.providerID == .warply })
        let campaignOffers = result.items.filter { $0.kind == .campaign }
        let couponOffers = result.items.filter { $0.kind == .coupon }
        #expect(campaignOffers.count + couponOffers.count == result.items.count)
        // Campaigns first (in their sorted order), then the coupon sets.
        let campaigns = warply.state.allCampaignList
        #expect(campaignOffers.map(\.id) == campaigns.map(\.sessionUUID))
        #expect(couponOffers.map(\.id) == harness.emulator.couponSetUUIDs)
        #expect(Array(result.items.prefix(campaignOffers.count)).map(\.kind).allSatisfy { $0 == .campaign })
        let first = try #require(campaignOffers.first)
        #expect(first.title.value() == campaigns.first?.title)
        #expect(first.attributes["session_uuid"] == first.id)
        #expect(couponOffers.allSatisfy { $0.attributes["points"] != nil && $0.validUntil != nil })

        // English on request; a page of the list.
        let english = try await engage.offers(OfferQuery(language: "en", page: PageRequest(offset: 2, limit: 3)))
        #expect(english.items.map(\.id) == Array(result.items.map(\.id)[2..<5]))
        #expect(english.items.first?.title.defaultLanguage == "en")
        #expect(english.items.first?.title.values["en"] != nil)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("engage.offers for a logged-in user holds the processed campaigns")
    func offersLoggedIn() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn()
        let result = try await engage.offers()
        let campaignIDs = result.items.filter { $0.kind == .campaign }.map(\.id)
        #expect(campaignIDs == warply.state.campaignList.map(\.sessionUUID))
        #expect(campaignIDs.count == 10)
        #expect(result.items.filter { $0.kind == .coupon }.count == 8)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("engage.merchants(near:radiusMeters:) returns Warply merchants with distances, nearest first")
    func merchantsNear() async throws {
        let harness = try await WarplyHarness()
        let (engage, _) = try await harness.startProvider()
        let center = try GeoPoint(latitude: 37.9755, longitude: 23.7348)
        let result = try await engage.merchants(near: center, radiusMeters: 2_000)
        #expect(result.isComplete)
        #expect(!result.items.isEmpty)
        #expect(result.items.allSatisfy { $0.providerID == .warply && $0.location != nil })
        let distances = result.items.compactMap(\.distanceMeters)
        #expect(distances.count == result.items.count)
        #expect(distances.allSatisfy { $0 <= 2_000 })
        #expect(WarplyE2E.isAscending(distances))
        // Warply was asked with the centre and the radius in kilometres.
        let sent = try #require(WarplyE2E.contextBodies(harness, WarplyPaths.standardContext).last)
        #expect(sent.fields["distance"] == .number(2) || sent.fields["distance"] == .integer(2))
        #expect(sent.fields["center"] != nil)

        let named = try await engage.merchants(MerchantQuery(center: center, radiusMeters: 2_000, text: "coffee island"))
        #expect(named.items.count == 1)
        #expect(named.items.first?.name.contains("Coffee Island") == true)
        // The text filter ignores case and accents (Greek names by default).
        let greek = try await engage.merchants(MerchantQuery(text: "σκλαβενιτης"))
        #expect(greek.items.map(\.name).sorted() == ["Σκλαβενίτης Αμπελοκήπων", "Σκλαβενίτης Καλαμαριάς"])
        #expect(greek.items.allSatisfy { $0.distanceMeters == nil })
        await engage.shutdown()
        await harness.stop()
    }

    @Test("engage.content returns Warply articles")
    func content() async throws {
        let harness = try await WarplyHarness()
        let (engage, _) = try await harness.startProvider()
        let all = try await engage.content()
        #expect(all.items.count == 6)
        #expect(all.items.allSatisfy { $0.providerID == .warply && $0.type == "article" && $0.imageURL != nil })
        let tips = try await engage.content(ContentQuery(language: "en", category: "tips"))
        #expect(tips.items.count == 2)
        #expect(tips.items.allSatisfy { $0.categories.contains("tips") && $0.title.defaultLanguage == "en" })
        let searched = try await engage.content(ContentQuery(language: "en", text: "market pass"))
        #expect(!searched.items.isEmpty)
        #expect(searched.items.count < all.items.count)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("engage.logIn logs Warply in by email and engage.logOut logs it out")
    func identity() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        let missingEmail = try await engage.logIn(UserIdentity(userID: "u-1"))
        #expect(missingEmail.failures[.warply]?.code == .invalidInput)
        // The suggestion names an initialiser that exists.
        #expect(missingEmail.failures[.warply]?.recoverySuggestion?.contains("UserIdentity(userID:email:)") == true)
        #expect(try await warply.isLoggedIn() == false)

        let report = try await engage.logIn(UserIdentity(userID: "u-1", email: "maria@example.gr"))
        #expect(report.succeeded == [.warply])
        #expect(report.isComplete)
        #expect(try await warply.isLoggedIn())
        #expect(harness.emulator.loginCount == 1)
        #expect(try await warply.profile().email == "maria@example.gr")

        let out = try await engage.logOut()
        #expect(out.succeeded == [.warply])
        #expect(try await warply.isLoggedIn() == false)
        #expect(harness.requests(to: WarplyWire.path(.logout, appUUID: WarplyHarness.appUUID)).count == 1)
        await #expect { try await warply.profile() } throws: { WarplyE2E.code($0) == .unauthorized }
        await engage.shutdown()
        await harness.stop()
    }

    @Test("an undecodable queued event is reported as dropped through onDrop, and the readable ones are delivered")
    func undecodableEventReported() async throws {
        let harness = try await WarplyHarness()
        let (engage, _) = try await harness.startProvider()
        let analytics = engage.registry.analytics
        let drops = Locked<[[String: String]]>([])
        let dropQueue = DispatchQueue(label: "warply-drops")
        let token = engage.events.subscribe(named: "analytics_events_dropped", on: dropQueue) { event in
            if let named = event as? NamedEvent { drops.withLock { $0.append(named.attributes) } }
        }
        _ = try await engage.track(TrackedEvent(.custom, name: "readable"))
        _ = try await analytics.enqueue(Data("{not an event".utf8), destination: WarplyProvider.eventDestination)
        let report = await analytics.flush()
        #expect(report.delivered == 1)
        #expect(report.dropped == 1)
        dropQueue.sync {}  // the drop event was dispatched during the flush
        #expect(drops.value == [["destination": WarplyProvider.eventDestination, "count": "1", "reason": "rejected"]])
        #expect(harness.emulator.receivedAnalyticsEvents.map(\.eventName) == ["readable"])
        #expect(try await analytics.pendingCount() == 0)
        token.cancel()
        await engage.shutdown()
        await harness.stop()
    }

    @Test("one event the backend refuses is dropped alone: its batch is split until it stands alone, the others arrive in order")
    func refusedEventDropsOnlyItself() async throws {
        let harness = try await WarplyHarness()
        let (engage, _) = try await harness.startProvider()
        let analytics = engage.registry.analytics
        for index in 0..<3 { _ = try await engage.track(TrackedEvent(.custom, name: "before-\(index)")) }
        // Written by an earlier version in a form the backend refuses (a time it cannot read).
        let refused = #"{"event_id":"refused-1","event_name":"legacy","params":{},"time_submitted":"yesterday"}"#
        _ = try await analytics.enqueue(Data(refused.utf8), destination: WarplyProvider.eventDestination, idempotencyKey: "refused-1")
        for index in 0..<3 { _ = try await engage.track(TrackedEvent(.custom, name: "after-\(index)")) }
        let report = await analytics.flush()
        #expect(report.delivered == 6)
        #expect(report.dropped == 1)
        #expect(
            harness.emulator.receivedAnalyticsEvents.map(\.eventName) == [
                "before-0", "before-1", "before-2", "after-0", "after-1", "after-2",
            ])
        #expect(try await analytics.pendingCount() == 0)
        // The batch of 7, then its halves, down to the refused event alone: a handful of requests, not one per event.
        let requests = harness.requests(to: WarplyPaths.analytics).count
        #expect(requests > 1 && requests <= 8, "\(requests) requests")
        await engage.shutdown()
        await harness.stop()
    }

    @Test("engage.track delivers each event exactly once even when the first delivery's answer is lost")
    func trackExactlyOnce() async throws {
        let harness = try await WarplyHarness()
        let (engage, _) = try await harness.startProvider()
        let analytics = engage.registry.analytics
        // The server stores the batch but the answer never arrives.
        let fault = harness.host.faults.inject(
            FaultRule(.dropConnectionAfterHandling, emulatorID: "warply", method: "POST", path: WarplyPaths.analytics)
        )
        let names = (0..<3).map { "e2e-event-\($0)" }
        for (index, name) in names.enumerated() {
            let report = try await engage.track(TrackedEvent(.custom, name: name, properties: ["index": .integer(Int64(index))]))
            #expect(report.succeeded == [.warply])
        }
        let first = await analytics.flush()
        #expect(first.delivered == 0)
        #expect(try await analytics.pendingCount() == 3)
        let attempts = harness.requests(to: WarplyPaths.analytics).count
        #expect(attempts >= 1)
        #expect(harness.emulator.receivedAnalyticsEvents.map(\.eventName).sorted() == names)

        harness.host.faults.remove(fault)
        harness.clock.advance(by: .seconds(3_600))  // past the back-off
        _ = await analytics.flush()
        #expect(try await analytics.pendingCount() == 0)
        #expect(harness.requests(to: WarplyPaths.analytics).count > attempts)
        // Resent with the same event ids: the server kept each event once.
        let received = harness.emulator.receivedAnalyticsEvents
        #expect(received.map(\.eventName).sorted() == names)
        #expect(Set(received.map(\.eventID)).count == 3)
        #expect(received.allSatisfy { $0.params["kind"] == "custom" && $0.params["index"] != nil })
        // JSON values travel as they are: the index is a number on the wire, not its text.
        #expect(Set(received.compactMap { $0.params["index"]?.int64Value }) == [0, 1, 2])

        let again = await analytics.flush()
        #expect(again.delivered == 0)
        #expect(harness.emulator.receivedAnalyticsEvents.count == 3)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("engage.track refuses an empty event name through Warply")
    func trackRefusesEmptyName() async throws {
        let harness = try await WarplyHarness()
        let (engage, _) = try await harness.startProvider()
        let report = try await engage.track(TrackedEvent(.custom, name: ""))
        #expect(report.failures[.warply]?.code == .invalidInput)
        #expect(try await engage.registry.analytics.pendingCount() == 0)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("every operation publishes custom_success_<op>_loyalty")
    func successOperationEvents() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        let recorder = WarplyEventRecorder(engage.events)
        let year = Calendar(identifier: .gregorian).component(.year, from: harness.clock.now) + 2
        var sessionUUID = ""
        var cardToken = ""
        var activeCode = ""
        var availableSet = ""
        // (operation name, call) in an order that works: logins first, logout last.
        let steps: [(String, () async throws -> Void)] = [
            ("initialize", { try await warply.initialize() }),
            ("verify_ticket", { try await warply.logIn(cosmoteGUID: "guid-1", ticket: "ticket-123") }),
            ("cosmote_user", { try await warply.logIn(cosmoteGUID: "guid-2") }),
            ("dei_login", { try await warply.logIn(deiEmail: "maria@example.gr") }),
            ("campaigns", { sessionUUID = try await warply.campaigns().first?.sessionUUID ?? "" }),
            ("campaigns_personalized", { _ = try await warply.personalizedCampaigns() }),
            ("single_campaign", { _ = try await warply.singleCampaign(sessionUUID: sessionUUID) }),
            ("supermarket_campaign", { _ = try await warply.supermarketCampaign() }),
            ("coupons", { activeCode = try await warply.coupons().active.first?.code ?? "" }),
            ("coupons_universal", { _ = try await warply.universalCoupons() }),
            ("couponsets", { _ = try await warply.couponSets() }),
            (
                "available_coupons",
                {
                    availableSet = try await warply.availableCoupons().filter { $0.value > 0 }.min { $0.key < $1.key }?.key ?? ""
                }
            ),
            ("validate_coupon", { _ = try await warply.validateCoupon(code: activeCode) }),
            ("redeem_coupon", { _ = try await warply.redeemCoupon(productUUID: availableSet) }),
            ("redeemed_sm_history", { _ = try await warply.redeemedSupermarketHistory() }),
            ("profile", { _ = try await warply.profile() }),
            ("change_password", { try await warply.changePassword(oldPassword: "old-password", newPassword: "new-password") }),
            ("reset_password", { try await warply.resetPassword(email: "maria@example.gr") }),
            ("request_otp", { try await warply.requestOTP(phoneNumber: "6912345678") }),
            (
                "add_card",
                {
                    cardToken = try await warply.addCard(
                        WarplyNewCard(number: "4111111111111111", issuer: "VISA", holder: "A B", expirationMonth: 5, expirationYear: year)
                    ).token
                }
            ),
            ("get_cards", { _ = try await warply.cards() }),
            ("delete_card", { try await warply.deleteCard(token: cardToken) }),
            ("transaction_history", { _ = try await warply.transactionHistory() }),
            ("points_history", { _ = try await warply.pointsHistory() }),
            ("merchants", { _ = try await warply.merchants() }),
            ("merchant_categories", { _ = try await warply.merchantCategories() }),
            ("articles", { _ = try await warply.articles() }),
            ("market_pass_details", { _ = try await warply.marketPassDetails() }),
            ("update_device_token", { try await warply.updateDeviceToken("token-1") }),
            ("track", { try await warply.track(TrackedEvent(.click, name: "tapped")) }),
            ("refresh_token", { try await warply.refreshToken() }),
            (
                "update_tokens",
                {
                    let current = try await warply.tokens.currentTokens()
                    try await warply.updateTokens(accessToken: current?.accessToken ?? "", refreshToken: current?.refreshToken ?? "")
                }
            ),
            ("logout", { try await warply.logOut() }),
        ]
        for (operation, call) in steps {
            let before = await recorder.settled().count
            try await call()
            let published = await recorder.settled().dropFirst(before).compactMap { $0 as? OperationEvent }
            let expected = "custom_success_\(operation)_loyalty"
            #expect(published.map(\.name) == [expected], "\(operation)")
            #expect(published.allSatisfy { $0.providerID == .warply && $0.succeeded && $0.operation == operation })
        }
        await engage.shutdown()
        await harness.stop()
    }

    @Test("failing operations publish custom_error_<op>_loyalty with the error")
    func errorOperationEvents() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn()
        let recorder = WarplyEventRecorder(engage.events)
        let soldOut = try #require(WarplyE2E.soldOutAndAvailableSets(harness.emulator).soldOut.first)
        _ = try? await warply.redeemCoupon(productUUID: soldOut)
        _ = try? await warply.logIn(deiEmail: "not-an-email")
        _ = try? await warply.singleCampaign(sessionUUID: "unknown-session")
        _ = try? await warply.deleteCard(token: "card_unknown")
        _ = try await warply.campaigns()

        let events = await recorder.settled().compactMap { $0 as? OperationEvent }
        #expect(
            events.map(\.name) == [
                "custom_error_redeem_coupon_loyalty",
                "custom_error_dei_login_loyalty",
                "custom_error_single_campaign_loyalty",
                "custom_error_delete_card_loyalty",
                "custom_success_campaigns_loyalty",
            ])
        var codes: [EngageError.Code] = []
        for event in events {
            if case let .failure(error) = event.outcome { codes.append(error.code) }
        }
        #expect(codes == [.warplyCouponNotRedeemable, .invalidInput, .warplyRequestRejected, .warplyRequestRejected])
        #expect(events.allSatisfy { $0.providerID == .warply && $0.eventSuffix == "loyalty" })
        await engage.shutdown()
        await harness.stop()
    }
}
