@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageWarply
import Foundation
import EngageTestTraits
import Testing

// Unit tests of `WarplyState`: the seed's setter/getter pairs (section 13 "State", section 5 "State
// Management Pattern"), the events it publishes (section 9), `clear()` and thread safety.

// MARK: - Helpers

/// An event bus delivering on a private serial queue, and everything it delivered (names and events).
private final class RecordingBus: Sendable {
    let queue = DispatchQueue(label: "warply-state-tests")
    let bus: EventBus
    private let received = Locked<[any EngageEvent]>([])
    private let subscription: Locked<EventSubscription?> = Locked(nil)

    init() {
        bus = EventBus()
        let received = received
        subscription.withLock { $0 = bus.subscribeToAll(on: queue) { event in received.withLock { $0.append(event) } } }
    }

    /// Waits until every event published so far was delivered.
    func drain() async {
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
    }

    func events() async -> [any EngageEvent] {
        await drain()
        return received.value
    }

    func names() async -> [String] {
        await events().map(\.name)
    }

    func reset() async {
        await drain()
        received.withLock { $0.removeAll() }
    }
}

private func campaign(
    _ id: String, sorting: Int = 0, type: String? = nil, category: String? = nil, carousel: Bool = false
) -> WarplyCampaign {
    WarplyCampaign(sessionUUID: id, offerCategory: category, sorting: sorting, type: type, isCarousel: carousel)
}

private func coupon(_ id: String, status: Int, expiration: String? = nil, redeemed: String? = nil) -> WarplyCoupon {
    WarplyCoupon(
        id: id, couponSetUUID: "cs-\(id)", code: "CODE-\(id)", status: status, expiration: expiration.map(WarplyTimestamp.init),
        redeemedDate: redeemed.map(WarplyTimestamp.init)
    )
}

private func ids(_ campaigns: [WarplyCampaign]) -> [String] { campaigns.map(\.sessionUUID) }
private func couponIDs(_ coupons: [WarplyCoupon]) -> [String] { coupons.map { $0.id ?? "?" } }

/// The seed's mixed coupon list: two active, two redeemed, one of another status.
private let mixedCoupons = [
    coupon("a-late", status: 1, expiration: "2026-12-31 23:59:00"), coupon("r-old", status: 0, redeemed: "2026-01-01 10:00:00"),
    coupon("a-soon", status: 1, expiration: "2026-02-01 10:00:00"), coupon("r-new", status: 0, redeemed: "2026-03-01 10:00:00"),
    coupon("other", status: 7),
]

// MARK: - Getters and setters

@Suite("WarplyState (unit)", .bounded)
struct WarplyStateUnitTests {
    @Test("a new state is empty")
    func startsEmpty() {
        let state = WarplyState()
        #expect(state.campaignList.isEmpty)
        #expect(state.allCampaignList.isEmpty)
        #expect(state.carouselList.isEmpty)
        #expect(state.supermarketCampaign == nil)
        #expect(state.couponList.isEmpty)
        #expect(state.oldCouponList.isEmpty)
        #expect(state.couponSetList.isEmpty)
        #expect(state.merchantList.isEmpty)
        #expect(state.marketPassDetails == nil)
        #expect(state.ccmsLoyaltyCampaigns.isEmpty)
        #expect(state.seasonalList.isEmpty)
    }

    @Test("setCampaignList stores sorted; campaignList hides CCMS, telco and questionnaire; allCampaignList hides nothing")
    func campaignListFilteredVersusAll() {
        let state = WarplyState()
        state.setCampaignList([
            campaign("c3", sorting: 3), campaign("ccms", sorting: 1, type: "CCMS"), campaign("c1", sorting: 1),
            campaign("telco", sorting: 0, category: "Telco"), campaign("quiz", sorting: 2, type: "questionnaire"),
            campaign("super", sorting: 2, type: "supermarket"), campaign("c1b", sorting: 1),
        ])
        #expect(ids(state.allCampaignList) == ["telco", "ccms", "c1", "c1b", "quiz", "super", "c3"])
        #expect(ids(state.campaignList) == ["c1", "c1b", "super", "c3"])
    }

    @Test("setCampaignList replaces the previous list; an empty list empties it")
    func campaignListReplaces() {
        let state = WarplyState()
        state.setCampaignList([campaign("a"), campaign("b")])
        state.setCampaignList([campaign("c")])
        #expect(ids(state.allCampaignList) == ["c"])
        state.setCampaignList([])
        #expect(state.allCampaignList.isEmpty)
        #expect(state.campaignList.isEmpty)
    }

    @Test("setCarouselList stores sorted (stable), independent of the campaign list")
    func carouselList() {
        let state = WarplyState()
        state.setCampaignList([campaign("list")])
        state.setCarouselList([
            campaign("c2", sorting: 2, carousel: true), campaign("c1", sorting: 1, carousel: true),
            campaign("c1b", sorting: 1, carousel: true),
        ])
        #expect(ids(state.carouselList) == ["c1", "c1b", "c2"])
        #expect(ids(state.allCampaignList) == ["list"])
        state.setCarouselList([])
        #expect(state.carouselList.isEmpty)
    }

    @Test("the supermarket campaign is set, replaced and cleared")
    func supermarketCampaign() {
        let state = WarplyState()
        let first = campaign("sm-1", type: "supermarket")
        state.setSupermarketCampaign(first)
        #expect(state.supermarketCampaign == first)
        state.setSupermarketCampaign(campaign("sm-2", type: "supermarket"))
        #expect(state.supermarketCampaign?.sessionUUID == "sm-2")
        state.setSupermarketCampaign(nil)
        #expect(state.supermarketCampaign == nil)
    }

    @Test("setCouponList keeps the active coupons (status 1), soonest expiration first")
    func couponListIsActiveSorted() {
        let state = WarplyState()
        state.setCouponList(mixedCoupons)
        #expect(couponIDs(state.couponList) == ["a-soon", "a-late"])
        #expect(state.couponList.allSatisfy { $0.isActive })
        #expect(state.oldCouponList.isEmpty)
    }

    @Test("setOldCouponList keeps the redeemed coupons (status 0), newest first")
    func oldCouponListIsRedeemedSorted() {
        let state = WarplyState()
        state.setOldCouponList(mixedCoupons)
        #expect(couponIDs(state.oldCouponList) == ["r-new", "r-old"])
        #expect(state.oldCouponList.allSatisfy { $0.isRedeemed })
        #expect(state.couponList.isEmpty)
    }

    @Test("the two coupon lists are independent; each setter replaces only its own")
    func couponListsIndependent() {
        let state = WarplyState()
        state.setCouponList(mixedCoupons)
        state.setOldCouponList(mixedCoupons)
        state.setCouponList([coupon("only", status: 1)])
        #expect(couponIDs(state.couponList) == ["only"])
        #expect(couponIDs(state.oldCouponList) == ["r-new", "r-old"])
        state.setOldCouponList([])
        #expect(state.oldCouponList.isEmpty)
        #expect(couponIDs(state.couponList) == ["only"])
    }

    @Test("coupon sets and merchants are stored as given (order kept)")
    func couponSetsAndMerchants() {
        let state = WarplyState()
        let sets = [WarplyCouponSet(uuid: "cs-2", name: "Two"), WarplyCouponSet(uuid: "cs-1", name: "One", isActive: false)]
        let merchants = [WarplyMerchant(uuid: "m-b", name: "B"), WarplyMerchant(uuid: "m-a", name: "A")]
        state.setCouponSetList(sets)
        state.setMerchantList(merchants)
        #expect(state.couponSetList == sets)
        #expect(state.merchantList == merchants)
        state.setCouponSetList([])
        state.setMerchantList([])
        #expect(state.couponSetList.isEmpty)
        #expect(state.merchantList.isEmpty)
    }

    @Test("market pass details are set, replaced and cleared")
    func marketPass() {
        let state = WarplyState()
        let details = WarplyMarketPassDetails(
            barcode: "9900001234567", totalDiscount: Decimal(string: "12.40")!, newOffers: 3, mapURL: "https://x.example/map")
        state.setMarketPassDetails(details)
        #expect(state.marketPassDetails == details)
        state.setMarketPassDetails(nil)
        #expect(state.marketPassDetails == nil)
    }

    @Test("CCMS offers and the seasonal list are stored as given")
    func ccmsAndSeasonal() {
        let state = WarplyState()
        let offers = [WarplyContextualOffer(loyaltyCampaignID: "l-1", eligibleAssets: ["a"], offerName: "Offer", sessionID: "s-1")]
        let seasonal = [WarplySeasonalPackage(uuid: "p-1", title: "Xmas"), WarplySeasonalPackage(uuid: "p-2")]
        state.setCCMSLoyaltyCampaigns(offers)
        state.setSeasonalList(seasonal)
        #expect(state.ccmsLoyaltyCampaigns == offers)
        #expect(state.seasonalList == seasonal)
    }

    @Test("clear() empties every list and value")
    func clearEmptiesEverything() {
        let state = WarplyState()
        fill(state)
        state.clear()
        #expect(state.campaignList.isEmpty)
        #expect(state.allCampaignList.isEmpty)
        #expect(state.carouselList.isEmpty)
        #expect(state.supermarketCampaign == nil)
        #expect(state.couponList.isEmpty)
        #expect(state.oldCouponList.isEmpty)
        #expect(state.couponSetList.isEmpty)
        #expect(state.merchantList.isEmpty)
        #expect(state.marketPassDetails == nil)
        #expect(state.ccmsLoyaltyCampaigns.isEmpty)
        #expect(state.seasonalList.isEmpty)
        // Usable again afterwards.
        state.setCampaignList([campaign("again")])
        #expect(ids(state.campaignList) == ["again"])
    }

    @Test("a state without a bus works the same (nothing to publish)")
    func worksWithoutABus() {
        let state = WarplyState(events: nil)
        fill(state)
        #expect(couponIDs(state.couponList) == ["a-soon", "a-late"])
        #expect(state.marketPassDetails != nil)
    }

    /// Sets every value once.
    private func fill(_ state: WarplyState) {
        state.setCampaignList([campaign("c", sorting: 1), campaign("q", type: "questionnaire")])
        state.setCarouselList([campaign("car", carousel: true)])
        state.setSupermarketCampaign(campaign("sm", type: "supermarket"))
        state.setCouponList(mixedCoupons)
        state.setOldCouponList(mixedCoupons)
        state.setCouponSetList([WarplyCouponSet(uuid: "cs")])
        state.setMerchantList([WarplyMerchant(uuid: "m")])
        state.setMarketPassDetails(WarplyMarketPassDetails(newOffers: 1))
        state.setCCMSLoyaltyCampaigns([WarplyContextualOffer(loyaltyCampaignID: "l")])
        state.setSeasonalList([WarplySeasonalPackage(uuid: "p")])
    }
}

// MARK: - Events

@Suite("WarplyState events (unit)", .bounded)
struct WarplyStateEventUnitTests {
    @Test("setCampaignList publishes campaigns_retrieved with the number of shown campaigns")
    func campaignsRetrieved() async throws {
        let recorder = RecordingBus()
        let state = WarplyState(events: recorder.bus)
        state.setCampaignList([campaign("a"), campaign("b", type: "ccms"), campaign("c", category: "telco"), campaign("d")])
        let events = await recorder.events()
        #expect(events.map(\.name) == ["campaigns_retrieved"])
        let event = try #require(events.first as? WarplyCampaignsRetrievedEvent)
        #expect(event.count == 2)
        #expect(event.providerID == .warply)
        #expect(event.attributes == ["count": "2"])
    }

    @Test("setCouponList publishes coupons_fetched with the active count and the stored redeemed count")
    func couponsFetched() async throws {
        let recorder = RecordingBus()
        let state = WarplyState(events: recorder.bus)
        state.setOldCouponList(mixedCoupons)  // no event of its own
        state.setCouponList(mixedCoupons)
        let events = await recorder.events()
        #expect(events.map(\.name) == ["coupons_fetched"])
        let event = try #require(events.first as? WarplyCouponsRetrievedEvent)
        #expect(event.activeCount == 2)
        #expect(event.redeemedCount == 2)
        #expect(event.providerID == .warply)
        #expect(event.attributes == ["active": "2", "redeemed": "2"])
    }

    @Test("setMarketPassDetails publishes market_pass_details_fetched for details, not for nil")
    func marketPassDetailsFetched() async {
        let recorder = RecordingBus()
        let state = WarplyState(events: recorder.bus)
        state.setMarketPassDetails(nil)
        state.setMarketPassDetails(WarplyMarketPassDetails(newOffers: 2))
        let events = await recorder.events()
        #expect(events.map(\.name) == ["market_pass_details_fetched"])
        #expect(events.first is WarplyMarketPassDetailsEvent)
        #expect(events.first?.providerID == .warply)
    }

    @Test("setCCMSLoyaltyCampaigns publishes ccms_retrieved with the count (also for an empty list)")
    func ccmsRetrieved() async throws {
        let recorder = RecordingBus()
        let state = WarplyState(events: recorder.bus)
        state.setCCMSLoyaltyCampaigns([WarplyContextualOffer(loyaltyCampaignID: "1"), WarplyContextualOffer(loyaltyCampaignID: "2")])
        state.setCCMSLoyaltyCampaigns([])
        let events = await recorder.events()
        #expect(events.map(\.name) == ["ccms_retrieved", "ccms_retrieved"])
        #expect(events.compactMap { ($0 as? WarplyCCMSRetrievedEvent)?.count } == [2, 0])
        #expect(events.first?.attributes == ["count": "2"])
    }

    @Test("setSeasonalList publishes seasonals_retrieved with the count")
    func seasonalsRetrieved() async throws {
        let recorder = RecordingBus()
        let state = WarplyState(events: recorder.bus)
        state.setSeasonalList([WarplySeasonalPackage(uuid: "p-1")])
        let events = await recorder.events()
        #expect(events.map(\.name) == ["seasonals_retrieved"])
        let event = try #require(events.first as? WarplySeasonalsRetrievedEvent)
        #expect(event.count == 1)
        #expect(event.attributes == ["count": "1"])
    }

    @Test("the other setters and clear() publish nothing")
    func silentSetters() async {
        let recorder = RecordingBus()
        let state = WarplyState(events: recorder.bus)
        state.setCarouselList([campaign("c", carousel: true)])
        state.setSupermarketCampaign(campaign("sm"))
        state.setOldCouponList(mixedCoupons)
        state.setCouponSetList([WarplyCouponSet(uuid: "cs")])
        state.setMerchantList([WarplyMerchant(uuid: "m")])
        state.clear()
        #expect(await recorder.names().isEmpty)
    }

    @Test("the event names are the seed's, and name subscribers receive them")
    func seedEventNames() async {
        let recorder = RecordingBus()
        let byName = Locked<[String]>([])
        let subscriptions = [
            "campaigns_retrieved", "coupons_fetched", "market_pass_details_fetched", "ccms_retrieved", "seasonals_retrieved",
        ].map { name in recorder.bus.subscribe(named: name, on: recorder.queue) { event in byName.withLock { $0.append(event.name) } } }
        let state = WarplyState(events: recorder.bus)
        state.setCampaignList([])
        state.setCouponList([])
        state.setMarketPassDetails(WarplyMarketPassDetails())
        state.setCCMSLoyaltyCampaigns([])
        state.setSeasonalList([])
        await recorder.drain()
        let expected = ["campaigns_retrieved", "coupons_fetched", "market_pass_details_fetched", "ccms_retrieved", "seasonals_retrieved"]
        #expect(await recorder.names() == expected)
        #expect(byName.value == expected)
        withExtendedLifetime(subscriptions) {}
    }

    @Test("typed subscribers receive the typed events")
    func typedSubscription() async {
        let recorder = RecordingBus()
        let counts = Locked<[Int]>([])
        let subscription = recorder.bus.subscribe(to: WarplyCampaignsRetrievedEvent.self, on: recorder.queue) { event in
            counts.withLock { $0.append(event.count) }
        }
        let state = WarplyState(events: recorder.bus)
        state.setCampaignList([campaign("a")])
        state.setSeasonalList([])
        state.setCampaignList([campaign("a"), campaign("b")])
        await recorder.drain()
        #expect(counts.value == [1, 2])
        withExtendedLifetime(subscription) {}
    }
}

// MARK: - Concurrency

@Suite("WarplyState concurrency (unit)", .bounded)
struct WarplyStateConcurrencyUnitTests {
    /// A campaign list of generation `generation`: `generation % 5 + 1` campaigns, all tagged with it.
    private static func campaigns(generation: Int) -> [WarplyCampaign] {
        (0...(generation % 5)).map { WarplyCampaign(sessionUUID: "g\(generation)-\($0)", title: "\(generation)", sorting: 5 - $0) }
    }

    private static func coupons(generation: Int) -> [WarplyCoupon] {
        (0...(generation % 4)).flatMap { index in
            [
                coupon("g\(generation)-a\(index)", status: 1, expiration: "2026-0\(index + 1)-01 10:00:00"),
                coupon("g\(generation)-r\(index)", status: 0, redeemed: "2026-0\(index + 1)-01 10:00:00"),
            ]
        }
    }

    /// Whether a read list is one whole generation (never a mix, never a partial list), sorted.
    private static func isWholeGeneration(_ list: [WarplyCampaign]) -> Bool {
        guard let generation = list.first?.title.flatMap(Int.init) else { return list.isEmpty }
        return list == WarplyCampaignProcessing.sorted(campaigns(generation: generation))
    }

    @Test("many concurrent setters and getters: no crash, no torn read, every event delivered, a consistent end")
    func concurrentAccess() async {
        let recorder = RecordingBus()
        let state = WarplyState(events: recorder.bus)
        let writers = 8
        let rounds = 150
        let torn = Locked(0)

        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    for round in 0..<rounds {
                        let generation = writer * rounds + round
                        state.setCampaignList(Self.campaigns(generation: generation))
                        state.setCouponList(Self.coupons(generation: generation))
                        state.setOldCouponList(Self.coupons(generation: generation))
                        state.setCarouselList(Self.campaigns(generation: generation))
                        state.setMerchantList([WarplyMerchant(uuid: "m\(generation)")])
                        state.setCCMSLoyaltyCampaigns([WarplyContextualOffer(loyaltyCampaignID: "\(generation)")])
                        if round % 50 == 49 { state.clear() }
                    }
                }
                group.addTask {
                    for _ in 0..<(rounds * 2) {
                        let campaigns = state.allCampaignList
                        let shown = state.campaignList
                        let carousel = state.carouselList
                        let active = state.couponList
                        let redeemed = state.oldCouponList
                        let wholeLists =
                            Self.isWholeGeneration(campaigns) && Self.isWholeGeneration(shown) && Self.isWholeGeneration(carousel)
                        let sortedCoupons =
                            active == WarplyCouponProcessing.active(active) && redeemed == WarplyCouponProcessing.redeemed(redeemed)
                        let statuses = active.allSatisfy(\.isActive) && redeemed.allSatisfy(\.isRedeemed)
                        if !(wholeLists && sortedCoupons && statuses && state.merchantList.count <= 1) {
                            torn.withLock { $0 += 1 }
                        }
                    }
                }
            }
        }
        #expect(torn.value == 0)

        // Every setter that publishes did publish, once per call.
        let names = await recorder.names()
        #expect(names.filter { $0 == "campaigns_retrieved" }.count == writers * rounds)
        #expect(names.filter { $0 == "coupons_fetched" }.count == writers * rounds)
        #expect(names.filter { $0 == "ccms_retrieved" }.count == writers * rounds)

        // The last round of every writer cleared the state (round 149 is a multiple of 50 minus 1).
        #expect(state.allCampaignList.isEmpty)
        #expect(state.couponList.isEmpty && state.oldCouponList.isEmpty)

        // A final write from one task is what every later read sees.
        state.setCampaignList(Self.campaigns(generation: 4))
        await withTaskGroup(of: [String].self) { group in
            for _ in 0..<16 { group.addTask { ids(state.allCampaignList) } }
            for await read in group {
                #expect(read == ["g4-4", "g4-3", "g4-2", "g4-1", "g4-0"])
            }
        }
    }

    @Test("concurrent writers of different values: the end state is exactly one writer's value per list")
    func lastWriterWinsPerList() async {
        let state = WarplyState()
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<32 {
                group.addTask {
                    state.setCouponSetList((0..<(writer + 1)).map { WarplyCouponSet(uuid: "w\(writer)-\($0)") })
                    state.setSeasonalList((0..<(writer + 1)).map { WarplySeasonalPackage(uuid: "w\(writer)-\($0)") })
                    state.setMarketPassDetails(WarplyMarketPassDetails(newOffers: writer))
                }
            }
        }
        let sets = state.couponSetList
        let writer = sets.count - 1
        #expect((0..<32).contains(writer))
        #expect(sets.map(\.uuid) == (0...writer).map { "w\(writer)-\($0)" })
        let seasonal = state.seasonalList
        let seasonalWriter = seasonal.count - 1
        #expect(seasonal.map(\.uuid) == (0...max(seasonalWriter, 0)).map { "w\(seasonalWriter)-\($0)" })
        #expect((0..<32).contains(state.marketPassDetails?.newOffers ?? -1))
    }
}
