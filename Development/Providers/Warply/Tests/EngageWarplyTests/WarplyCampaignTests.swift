// End-to-end tests of the campaign operations: the provider against the emulator over a real socket.
@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageWarply
import Foundation
import EngageTestTraits
import Testing
import WarplyEmulator

/// Records every event of a bus on a private serial queue, so a test can read exactly what was
/// published before a point without polling: ``settled()`` waits for the queue to drain.
final class WarplyEventRecorder: Sendable {
    private let queue = DispatchQueue(label: "warply-e2e-event-recorder")
    private let recorded: Locked<[any EngageEvent]>
    private let subscription: EventSubscription

    init(_ bus: EventBus) {
        let recorded = Locked<[any EngageEvent]>([])
        self.recorded = recorded
        subscription = bus.subscribeToAll(on: queue) { event in
            recorded.withLock { $0.append(event) }
        }
    }

    /// Every event delivered so far, once the events already published have been delivered.
    func settled() async -> [any EngageEvent] {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
        return recorded.value
    }

    /// The names of ``settled()``.
    func names() async -> [String] {
        await settled().map(\.name)
    }

    func cancel() { subscription.cancel() }
}

/// Small helpers shared by the end-to-end files.
enum WarplyE2E {
    /// Whether `values` never decrease.
    static func isAscending<Value: Comparable>(_ values: [Value]) -> Bool {
        zip(values, values.dropFirst()).allSatisfy { $0 <= $1 }
    }

    /// Whether `values` never increase.
    static func isDescending<Value: Comparable>(_ values: [Value]) -> Bool {
        zip(values, values.dropFirst()).allSatisfy { $0 >= $1 }
    }

    /// The error's `EngageError` code, if it is one.
    static func code(_ error: any Error) -> EngageError.Code? {
        (error as? EngageError)?.code
    }

    /// The context requests sent to `path`, decoded.
    static func contextBodies(_ harness: WarplyHarness, _ path: String) -> [WarplyContextRequest] {
        contextRequests(harness.requests(to: path))
    }

    /// The coupon sets the emulator has sold out, and the ones it still has.
    static func soldOutAndAvailableSets(_ emulator: WarplyEmulator) -> (soldOut: Set<String>, available: Set<String>) {
        let uuids = emulator.couponSetUUIDs
        return (
            Set(uuids.filter { emulator.availability(ofCouponSet: $0) == 0 }),
            Set(uuids.filter { (emulator.availability(ofCouponSet: $0) ?? 0) > 0 })
        )
    }
}

@Suite("Warply campaigns end to end", .bounded)
struct WarplyCampaignTests {
    @Test("without a session, campaigns() returns every basic campaign sorted, ccms/telco/questionnaire/carousel included")
    func unauthenticatedCampaigns() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        let retrieved = engage.events.stream(of: WarplyCampaignsRetrievedEvent.self)
        let campaigns = try await warply.campaigns()

        #expect(campaigns.count == 14)
        #expect(campaigns.map(\.sorting) == Array(1...14))
        #expect(campaigns.contains { $0.isCCMS })
        #expect(campaigns.contains { $0.isTelco })
        #expect(campaigns.contains { $0.isQuestionnaire })
        #expect(campaigns.contains { $0.isSupermarket })
        #expect(campaigns.filter { $0.isCarousel }.count == 2)
        // No coupon availability is applied without a session, not even to the sold-out set.
        let soldOut = WarplyE2E.soldOutAndAvailableSets(harness.emulator).soldOut
        #expect(!soldOut.isEmpty)
        #expect(campaigns.contains { $0.couponSetUUID.map(soldOut.contains) == true })
        #expect(campaigns.allSatisfy { $0.couponAvailability == nil })
        // Only the basic list was asked for: no bearer request, no availability request.
        #expect(harness.requests(to: WarplyPaths.authenticatedContext).isEmpty)
        let actions = WarplyE2E.contextBodies(harness, WarplyPaths.standardContext).map(\.action)
        #expect(actions == [WarplyWire.Action.retrieve])

        #expect(warply.state.allCampaignList == campaigns)
        #expect(warply.state.campaignList == campaigns.filter { !$0.isCCMS && !$0.isTelco && !$0.isQuestionnaire })
        var iterator = retrieved.makeAsyncIterator()
        #expect(await iterator.next()?.count == 11)  // the shown ones: 14 minus ccms, telco, questionnaire
        await engage.shutdown()
        await harness.stop()
    }

    @Test("logged in, campaigns() merges basic and personalized, applies availability, filters and sorts")
    func authenticatedCampaigns() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn()
        let recorder = WarplyEventRecorder(engage.events)
        let campaigns = try await warply.campaigns()
        let personalized = try await warply.personalizedCampaigns()
        let (soldOut, available) = WarplyE2E.soldOutAndAvailableSets(harness.emulator)

        // 14 basic + 2 personalized, minus the sold-out one, the 2 carousel ones and ccms/telco/questionnaire.
        #expect(campaigns.count == 10)
        #expect(WarplyE2E.isAscending(campaigns.map(\.sorting)))
        #expect(campaigns.allSatisfy { !$0.isCarousel && !$0.isCCMS && !$0.isTelco && !$0.isQuestionnaire })
        #expect(!campaigns.contains { $0.couponSetUUID.map(soldOut.contains) == true })
        for campaign in campaigns {
            if let couponSet = campaign.couponSetUUID {
                #expect(available.contains(couponSet))
                #expect(campaign.couponAvailability == harness.emulator.availability(ofCouponSet: couponSet))
            } else {
                #expect(campaign.couponAvailability == nil)
            }
        }
        // Both personalized campaigns are merged in (they come from the bearer context).
        #expect(personalized.count == 2)
        #expect(WarplyE2E.isAscending(personalized.map(\.sorting)))
        #expect(personalized.allSatisfy { (21...24).contains($0.sorting) })
        #expect(Set(personalized.map(\.sessionUUID)).isSubset(of: Set(campaigns.map(\.sessionUUID))))

        // The carousel campaigns are kept apart.
        let carousel = warply.state.carouselList
        #expect(carousel.count == 2)
        #expect(carousel.allSatisfy { $0.isCarousel })
        #expect(WarplyE2E.isAscending(carousel.map(\.sorting)))
        #expect(Set(carousel.map(\.sessionUUID)).isDisjoint(with: Set(campaigns.map(\.sessionUUID))))

        // allCampaignList keeps ccms/telco/questionnaire; campaignList is what campaigns() returned.
        let all = warply.state.allCampaignList
        #expect(all.count == 13)
        #expect(all.contains { $0.isCCMS } && all.contains { $0.isTelco } && all.contains { $0.isQuestionnaire })
        #expect(!all.contains { $0.isCarousel })
        #expect(warply.state.campaignList == campaigns)

        // One basic, one personalized and one availability request for campaigns(), one more for personalizedCampaigns().
        let standard = WarplyE2E.contextBodies(harness, WarplyPaths.standardContext).map(\.action)
        #expect(standard.sorted() == [WarplyWire.Action.availability, WarplyWire.Action.retrieve])
        let bearer = WarplyE2E.contextBodies(harness, WarplyPaths.authenticatedContext).map(\.action)
        #expect(bearer == [WarplyWire.Action.retrievePersonalized, WarplyWire.Action.retrievePersonalized])

        let events = await recorder.settled()
        let retrieved = events.compactMap { $0 as? WarplyCampaignsRetrievedEvent }
        #expect(retrieved.map(\.count) == [10])
        #expect(events.map(\.name).contains("campaigns_retrieved"))
        #expect(events.map(\.name).contains("custom_success_campaigns_loyalty"))
        #expect(events.map(\.name).contains("custom_success_campaigns_personalized_loyalty"))
        await engage.shutdown()
        await harness.stop()
    }

    @Test("campaigns_retrieved reaches a subscriber by name")
    func campaignsRetrievedByName() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn()
        let queue = DispatchQueue(label: "warply-e2e-named")
        let counts = Locked<[String]>([])
        let subscription = engage.events.subscribe(named: "campaigns_retrieved", on: queue) { event in
            counts.withLock { $0.append(event.attributes["count"] ?? "?") }
        }
        _ = try await warply.campaigns()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in queue.async { continuation.resume() } }
        #expect(counts.value == ["10"])
        subscription.cancel()
        await engage.shutdown()
        await harness.stop()
    }

    @Test("personalizedCampaigns needs a session and sends nothing without one")
    func personalizedNeedsSession() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        await #expect { try await warply.personalizedCampaigns() } throws: { WarplyE2E.code($0) == .unauthorized }
        #expect(harness.requests(to: WarplyPaths.authenticatedContext).isEmpty)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("singleCampaign finds a known session and rejects an unknown one")
    func singleCampaign() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        let campaigns = try await warply.campaigns()
        let known = try #require(campaigns.first { $0.couponSetUUID != nil })
        let single = try await warply.singleCampaign(sessionUUID: known.sessionUUID)
        #expect(single == known)
        let path = WarplyWire.path(.session, appUUID: WarplyHarness.appUUID, sessionUUID: known.sessionUUID)
        #expect(harness.requests(to: path).map(\.method) == ["GET"])

        let unknown = "0123456789abcdef0123456789abcdef"
        await #expect {
            try await warply.singleCampaign(sessionUUID: unknown)
        } throws: { error in
            let error = error as? EngageError
            return error?.code == .warplyRequestRejected && error?.message.contains("Unknown session") == true
        }
        #expect(harness.requests(to: WarplyWire.path(.session, appUUID: WarplyHarness.appUUID, sessionUUID: unknown)).count == 1)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("supermarketCampaign returns the supermarket campaign and keeps it in the state")
    func supermarketCampaign() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        #expect(warply.state.supermarketCampaign == nil)
        let campaign = try #require(try await warply.supermarketCampaign())
        #expect(campaign.isSupermarket)
        #expect(campaign.type == WarplyCampaign.supermarketType)
        #expect(warply.state.supermarketCampaign == campaign)
        let sent = WarplyE2E.contextBodies(harness, WarplyPaths.standardContext)
        #expect(sent.map(\.action) == [WarplyWire.Action.retrieveSupermarket])
        await engage.shutdown()
        await harness.stop()
    }

    @Test("campaignURL has no escaped slashes and no tokens; campaignParameters carry the tokens but hide them in description")
    func campaignURLAndParameters() async throws {
        let harness = try await WarplyHarness(emulatorConfiguration: .init(merchantIDs: ["merchant-1"]))
        let (engage, warply) = try await harness.loggedIn(harness.warplyConfiguration { $0.merchantID = "merchant-1" })
        let tokens = try #require(try await warply.tokens.currentTokens())
        let refreshToken = try #require(tokens.refreshToken)
        _ = try await warply.campaigns()
        // Several of these arrive with escaped slashes (`https:\/\/…`) in index_url.
        let campaigns = warply.state.allCampaignList
        #expect(!campaigns.isEmpty)
        for campaign in campaigns {
            let url = try #require(try await warply.campaignURL(for: campaign))
            let text = url.absoluteString
            #expect(!text.contains(#"\/"#))
            #expect(!text.contains("%5C"))
            #expect(text.hasPrefix("https://engage-uat.dei.gr/campaigns/\(campaign.sessionUUID)"))
            #expect(!text.contains(tokens.accessToken))
            #expect(!text.contains(refreshToken))
        }

        let campaign = try #require(campaigns.first)
        let parameters = try await warply.campaignParameters(for: campaign, isMap: true)
        let json = try parameters.jsonString()
        #expect(json.contains(tokens.accessToken))
        #expect(json.contains(refreshToken))
        #expect(parameters.values["session_uuid"] == campaign.sessionUUID)
        #expect(parameters.values["app_uuid"] == WarplyHarness.appUUID)
        #expect(parameters.values["map"] == "true")
        #expect(parameters.values["client_id"]?.isEmpty == false)
        #expect(parameters.values["client_secret"]?.isEmpty == false)
        #expect(parameters.values["web_id"] == "merchant-1")  // the seed's {web_id}: the merchant id
        for secret in [tokens.accessToken, refreshToken, parameters.values["client_secret"] ?? "-"] {
            #expect(!parameters.description.contains(secret))
            #expect(!"\(parameters)".contains(secret))
        }
        #expect(parameters.description.contains("access_token"))  // names only
        #expect(try await warply.campaignParameters(for: campaign).values["map"] == "false")
        await engage.shutdown()
        await harness.stop()
    }

    @Test("ccmsURL resolves a CCMS offer to its stored campaign after setCCMSLoyaltyCampaigns")
    func ccmsURL() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn()
        let recorder = WarplyEventRecorder(engage.events)
        _ = try await warply.campaigns()
        let ccms = try #require(warply.state.allCampaignList.first { $0.isCCMS })
        #expect(!warply.state.campaignList.contains { $0.isCCMS })
        let offer = WarplyContextualOffer(
            loyaltyCampaignID: "lc-42", eligibleAssets: ["6900000000"], offerName: "Offer", sessionID: ccms.sessionUUID)
        let stray = WarplyContextualOffer(loyaltyCampaignID: "lc-43", sessionID: "not-a-fetched-session")
        warply.state.setCCMSLoyaltyCampaigns([offer, stray])
        #expect(warply.state.ccmsLoyaltyCampaigns == [offer, stray])

        let url = try #require(try await warply.ccmsURL(for: offer))
        #expect(url == (try await warply.campaignURL(for: ccms)))
        #expect(url.absoluteString.contains(ccms.sessionUUID))
        #expect(try await warply.ccmsURL(for: stray) == nil)
        #expect(try await warply.ccmsURL(for: WarplyContextualOffer(loyaltyCampaignID: "lc-44")) == nil)

        let ccmsEvents = await recorder.settled().compactMap { $0 as? WarplyCCMSRetrievedEvent }
        #expect(ccmsEvents.map(\.count) == [2])
        await engage.shutdown()
        await harness.stop()
    }

    @Test("the language changes the texts: el by default, en on request or after setLanguage")
    func languages() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        let greek = try await warply.campaigns()
        let english = try await warply.campaigns(language: .english)
        #expect(greek.map(\.sessionUUID) == english.map(\.sessionUUID))
        let greekByID = Dictionary(uniqueKeysWithValues: greek.map { ($0.sessionUUID, $0.title ?? "") })
        for campaign in english {
            let title = try #require(campaign.title)
            #expect(title != greekByID[campaign.sessionUUID])
            #expect(!title.unicodeScalars.contains { (0x0370...0x03FF).contains($0.value) })  // no Greek letters
        }
        #expect(greek.allSatisfy { ($0.title ?? "").unicodeScalars.contains { (0x0370...0x03FF).contains($0.value) } })

        warply.setLanguage(.english)
        #expect(warply.language == .english)
        let afterSet = try await warply.campaigns()
        #expect(afterSet.map(\.title) == english.map(\.title))
        let sentLanguages = WarplyE2E.contextBodies(harness, WarplyPaths.standardContext).map { $0.string("language") }
        #expect(sentLanguages == ["el", "en", "en"])
        await engage.shutdown()
        await harness.stop()
    }

    @Test("known campaign filters are sent to Warply and narrow the list")
    func filters() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        let food = try await warply.campaigns(filters: ["filter": .string("food")])
        #expect(!food.isEmpty)
        #expect(food.allSatisfy { $0.filter == "food" })
        #expect(WarplyE2E.isAscending(food.map(\.sorting)))
        let sent = try #require(WarplyE2E.contextBodies(harness, WarplyPaths.standardContext).last)
        #expect(sent.fields["filters"] == .object(["filter": .string("food")]))
        await engage.shutdown()
        await harness.stop()
    }
}
