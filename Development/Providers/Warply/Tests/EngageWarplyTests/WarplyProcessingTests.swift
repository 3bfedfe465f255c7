@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageWarply
import Foundation
import EngageTestTraits
import Testing

// Unit tests of the seed's campaign and coupon rules (seed sections 5 and 11, wire/warply.md
// "Behaviour rules"), through the public pure functions only.

// MARK: - Helpers

/// A campaign with only the fields the processing rules look at.
private func makeCampaign(
    _ id: String, sorting: Int = 0, couponSet: String? = nil, type: String? = nil, category: String? = nil,
    carousel: Bool = false, availability: Int? = nil, title: String? = nil
) -> WarplyCampaign {
    WarplyCampaign(
        sessionUUID: id, title: title, offerCategory: category, couponSetUUID: couponSet, sorting: sorting, type: type,
        isCarousel: carousel, couponAvailability: availability
    )
}

private func ids(_ campaigns: [WarplyCampaign]) -> [String] { campaigns.map(\.sessionUUID) }

private func availability(_ pairs: (String, Int)...) -> [WarplyCouponAvailability] {
    pairs.map { WarplyCouponAvailability(couponSetUUID: $0.0, availability: $0.1) }
}

/// A coupon with a status and optional expiration / redeemed texts.
private func makeCoupon(
    _ id: String, status: Int = WarplyCoupon.activeStatus, expiration: String? = nil, redeemed: String? = nil
) -> WarplyCoupon {
    WarplyCoupon(
        id: id, couponSetUUID: "cs-\(id)", status: status, expiration: expiration.map(WarplyTimestamp.init),
        redeemedDate: redeemed.map(WarplyTimestamp.init)
    )
}

private func couponIDs(_ coupons: [WarplyCoupon]) -> [String] { coupons.map { $0.id ?? "?" } }

extension SeededGenerator {
    /// A value in `0..<bound`, so "random" inputs are the same on every run.
    mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

// MARK: - Campaigns

@Suite("WarplyCampaignProcessing (unit)", .bounded)
struct WarplyCampaignProcessingUnitTests {
    // MARK: Merge

    @Test("a personalized campaign replaces the basic one with the same session UUID, in the basic one's place")
    func personalizedReplacesBasicInPlace() {
        let basic = [makeCampaign("a", title: "basic a"), makeCampaign("b", title: "basic b"), makeCampaign("c", title: "basic c")]
        let personalized = [makeCampaign("b", title: "personal b"), makeCampaign("d", title: "personal d")]
        let result = WarplyCampaignProcessing.process(basic: basic, personalized: personalized, availability: [])
        #expect(ids(result.all) == ["a", "b", "c", "d"])
        #expect(result.all.map(\.title) == ["basic a", "personal b", "basic c", "personal d"])
        #expect(ids(result.campaigns) == ["a", "b", "c", "d"])
    }

    @Test("merging never duplicates a session UUID; the last duplicate wins")
    func mergeDeduplicates() {
        let basic = [makeCampaign("a", title: "1"), makeCampaign("a", title: "2")]
        let personalized = [makeCampaign("b", title: "3"), makeCampaign("b", title: "4"), makeCampaign("a", title: "5")]
        let result = WarplyCampaignProcessing.process(basic: basic, personalized: personalized, availability: [])
        #expect(ids(result.all) == ["a", "b"])
        #expect(result.all.map(\.title) == ["5", "4"])
        #expect(Set(ids(result.all)).count == result.all.count)
    }

    @Test("only basic, only personalized, or nothing at all")
    func oneSidedInputs() {
        let list = [makeCampaign("x", sorting: 2), makeCampaign("y", sorting: 1)]
        #expect(ids(WarplyCampaignProcessing.process(basic: list, personalized: [], availability: []).campaigns) == ["y", "x"])
        #expect(ids(WarplyCampaignProcessing.process(basic: [], personalized: list, availability: []).campaigns) == ["y", "x"])
        let empty = WarplyCampaignProcessing.process(basic: [], personalized: [], availability: availability(("cs", 0)))
        #expect(empty.campaigns.isEmpty && empty.carousel.isEmpty && empty.all.isEmpty)
    }

    // MARK: Availability

    @Test("each campaign gets its coupon set's availability")
    func availabilityIsSetFromTheCouponSet() {
        let basic = [makeCampaign("a", couponSet: "cs-1"), makeCampaign("b", couponSet: "cs-2"), makeCampaign("c")]
        let result = WarplyCampaignProcessing.process(basic: basic, personalized: [], availability: availability(("cs-1", 12), ("cs-2", 3)))
        let byID = Dictionary(uniqueKeysWithValues: result.all.map { ($0.sessionUUID, $0.couponAvailability) })
        #expect(byID["a"] == 12)
        #expect(byID["b"] == 3)
        #expect(byID["c"] == .some(nil))
        #expect(result.campaigns.map(\.couponAvailability) == [12, 3, nil])
    }

    @Test("two campaigns sharing a coupon set both get its availability")
    func sharedCouponSet() {
        let basic = [makeCampaign("a", couponSet: "cs"), makeCampaign("b", couponSet: "cs")]
        let result = WarplyCampaignProcessing.process(basic: basic, personalized: [], availability: availability(("cs", 7)))
        #expect(result.campaigns.map(\.couponAvailability) == [7, 7])
    }

    @Test("an availability entry overrides the availability the campaign arrived with")
    func availabilityEntryOverridesTheCampaignsOwn() {
        let basic = [makeCampaign("a", couponSet: "cs-1", availability: 0), makeCampaign("b", couponSet: "cs-2", availability: 9)]
        let result = WarplyCampaignProcessing.process(basic: basic, personalized: [], availability: availability(("cs-1", 4), ("cs-2", 0)))
        #expect(ids(result.campaigns) == ["a"])
        #expect(result.campaigns.first?.couponAvailability == 4)
    }

    @Test("duplicate availability entries: the last one counts")
    func duplicateAvailabilityEntries() {
        let basic = [makeCampaign("a", couponSet: "cs")]
        let dropped = WarplyCampaignProcessing.process(basic: basic, personalized: [], availability: availability(("cs", 5), ("cs", 0)))
        #expect(dropped.campaigns.isEmpty)
        let kept = WarplyCampaignProcessing.process(basic: basic, personalized: [], availability: availability(("cs", 0), ("cs", 5)))
        #expect(kept.campaigns.first?.couponAvailability == 5)
    }

    @Test("campaigns whose coupon set has availability 0 are dropped from the lists but kept in `all`")
    func zeroAvailabilityIsDropped() {
        let basic = [
            makeCampaign("sold-out", couponSet: "cs-0"), makeCampaign("left", couponSet: "cs-1"),
            makeCampaign("sold-out-carousel", couponSet: "cs-0", carousel: true),
        ]
        let result = WarplyCampaignProcessing.process(basic: basic, personalized: [], availability: availability(("cs-0", 0), ("cs-1", 1)))
        #expect(ids(result.campaigns) == ["left"])
        #expect(result.carousel.isEmpty)
        #expect(Set(ids(result.all)) == ["sold-out", "left", "sold-out-carousel"])
        #expect(result.all.first { $0.sessionUUID == "sold-out" }?.couponAvailability == 0)
    }

    @Test("campaigns whose coupon set has no availability entry (or that have no coupon set) are kept")
    func missingAvailabilityIsKept() {
        let basic = [makeCampaign("unknown-set", couponSet: "cs-unknown"), makeCampaign("no-set"), makeCampaign("zero", couponSet: "cs-0")]
        let result = WarplyCampaignProcessing.process(basic: basic, personalized: [], availability: availability(("cs-0", 0)))
        #expect(ids(result.campaigns) == ["unknown-set", "no-set"])
        #expect(result.campaigns.allSatisfy { $0.couponAvailability == nil })
    }

    @Test("a campaign that arrived with availability 0 and has no entry is dropped (the seed filters on the value)")
    func arrivedWithZeroAndNoEntry() {
        let basic = [makeCampaign("a", couponSet: "cs", availability: 0), makeCampaign("b", availability: 0), makeCampaign("c")]
        let result = WarplyCampaignProcessing.process(basic: basic, personalized: [], availability: [])
        #expect(ids(result.campaigns) == ["c"])
    }

    @Test("negative availability is not zero: the campaign stays")
    func negativeAvailabilityStays() {
        let result = WarplyCampaignProcessing.process(
            basic: [makeCampaign("a", couponSet: "cs")], personalized: [], availability: availability(("cs", -1))
        )
        #expect(ids(result.campaigns) == ["a"])
    }

    // MARK: Carousel

    @Test("carousel campaigns are split out, sorted, and never in the main list")
    func carouselSplit() {
        let basic = [
            makeCampaign("list-2", sorting: 2), makeCampaign("car-3", sorting: 3, carousel: true), makeCampaign("list-1", sorting: 1),
            makeCampaign("car-1", sorting: 1, carousel: true),
        ]
        let result = WarplyCampaignProcessing.process(basic: basic, personalized: [], availability: [])
        #expect(ids(result.campaigns) == ["list-1", "list-2"])
        #expect(ids(result.carousel) == ["car-1", "car-3"])
        #expect(result.carousel.allSatisfy { $0.isCarousel })
        #expect(!result.campaigns.contains { $0.isCarousel })
        #expect(ids(result.all) == ["list-1", "car-1", "list-2", "car-3"])
    }

    @Test("a personalized campaign can move a campaign into or out of the carousel")
    func personalizedChangesCarousel() {
        let basic = [makeCampaign("a", carousel: true), makeCampaign("b")]
        let personalized = [makeCampaign("a"), makeCampaign("b", carousel: true)]
        let result = WarplyCampaignProcessing.process(basic: basic, personalized: personalized, availability: [])
        #expect(ids(result.campaigns) == ["a"])
        #expect(ids(result.carousel) == ["b"])
    }

    // MARK: CCMS, telco, questionnaire

    @Test(
        "CCMS, telco and questionnaire campaigns are removed, in any letter case",
        arguments: [
            (type: "ccms", category: nil), (type: "CCMS", category: nil), (type: "Ccms", category: nil),
            (type: "questionnaire", category: nil), (type: "QUESTIONNAIRE", category: nil), (type: "Questionnaire", category: nil),
            (type: nil, category: "telco"), (type: nil, category: "TELCO"), (type: "coupon", category: "Telco"),
        ] as [(type: String?, category: String?)]
    )
    func hiddenKindsAreRemoved(kind: (type: String?, category: String?)) {
        let hidden = makeCampaign("hidden", sorting: 1, type: kind.type, category: kind.category)
        let hiddenCarousel = makeCampaign("hidden-carousel", sorting: 1, type: kind.type, category: kind.category, carousel: true)
        let result = WarplyCampaignProcessing.process(
            basic: [hidden, hiddenCarousel, makeCampaign("shown", sorting: 2)], personalized: [], availability: [])
        #expect(ids(result.campaigns) == ["shown"])
        #expect(result.carousel.isEmpty)
        #expect(Set(ids(result.all)) == ["hidden", "hidden-carousel", "shown"])
        #expect(!WarplyCampaignProcessing.isShown(hidden))
    }

    @Test(
        "other types and categories are shown (only exact names, no substrings or padding)",
        arguments: [
            (type: "supermarket", category: nil), (type: "coupon", category: "fuel"), (type: "ccms-like", category: nil),
            (type: " ccms", category: nil), (type: "questionnaires", category: nil), (type: nil, category: "telecom"),
            (type: nil, category: nil), (type: "", category: ""),
        ] as [(type: String?, category: String?)]
    )
    func otherKindsAreShown(kind: (type: String?, category: String?)) {
        let campaign = makeCampaign("shown", type: kind.type, category: kind.category)
        #expect(WarplyCampaignProcessing.isShown(campaign))
        #expect(ids(WarplyCampaignProcessing.process(basic: [campaign], personalized: [], availability: []).campaigns) == ["shown"])
    }

    @Test("telco is an offer category, not a type; ccms and questionnaire are types, not categories")
    func filterFieldsAreTheRightOnes() {
        #expect(WarplyCampaignProcessing.isShown(makeCampaign("a", type: "telco")))
        #expect(WarplyCampaignProcessing.isShown(makeCampaign("b", category: "ccms")))
        #expect(WarplyCampaignProcessing.isShown(makeCampaign("c", category: "questionnaire")))
    }

    // MARK: Sorting

    @Test("sorted by `sorting`, lowest first, negative values included")
    func sortsBySorting() {
        let basic = [
            makeCampaign("p5", sorting: 5), makeCampaign("m1", sorting: -1), makeCampaign("z0", sorting: 0), makeCampaign("p2", sorting: 2),
        ]
        let result = WarplyCampaignProcessing.process(basic: basic, personalized: [], availability: [])
        #expect(ids(result.campaigns) == ["m1", "z0", "p2", "p5"])
        #expect(ids(result.all) == ["m1", "z0", "p2", "p5"])
    }

    @Test("ties keep their merged order (basic first, then personalized; a replacement keeps the basic slot)")
    func tiesKeepMergedOrder() {
        let basic = [makeCampaign("b1", sorting: 1), makeCampaign("b2", sorting: 0), makeCampaign("b3", sorting: 1)]
        let personalized = [
            makeCampaign("p1", sorting: 1), makeCampaign("b1", sorting: 1, title: "replaced"), makeCampaign("p2", sorting: 0),
        ]
        let result = WarplyCampaignProcessing.process(basic: basic, personalized: personalized, availability: [])
        #expect(ids(result.all) == ["b2", "p2", "b1", "b3", "p1"])
        #expect(result.all[2].title == "replaced")
    }

    @Test("a replacement's own `sorting` decides its position")
    func replacementSortingCounts() {
        let basic = [makeCampaign("a", sorting: 1), makeCampaign("b", sorting: 2)]
        let personalized = [makeCampaign("a", sorting: 3)]
        #expect(ids(WarplyCampaignProcessing.process(basic: basic, personalized: personalized, availability: []).campaigns) == ["b", "a"])
    }

    @Test("`sorted` is a stable sort (checked against a reference on 500 generated campaigns)")
    func sortedIsStable() {
        var random = SeededGenerator(seed: 42)
        let campaigns = (0..<500).map { makeCampaign("c\($0)", sorting: random.next(below: 7) - 3) }
        let reference = campaigns.enumerated().sorted { ($0.element.sorting, $0.offset) < ($1.element.sorting, $1.offset) }.map(\.element)
        #expect(WarplyCampaignProcessing.sorted(campaigns) == reference)
        #expect(WarplyCampaignProcessing.sorted(WarplyCampaignProcessing.sorted(campaigns)) == reference)
    }

    @Test("`sorted` on all-equal keys returns the input order")
    func sortedAllEqual() {
        let campaigns = (0..<50).map { makeCampaign("c\($0)", sorting: 4) }
        #expect(WarplyCampaignProcessing.sorted(campaigns) == campaigns)
        #expect(WarplyCampaignProcessing.sorted([]).isEmpty)
    }

    @Test("the whole pipeline on generated input matches a straightforward reference implementation")
    func pipelineMatchesReference() {
        var random = SeededGenerator(seed: 7)
        let types: [String?] = [nil, "coupon", "ccms", "QUESTIONNAIRE", "supermarket"]
        let categories: [String?] = [nil, "fuel", "Telco"]
        func generate(_ prefix: String, _ count: Int) -> [WarplyCampaign] {
            (0..<count).map { index in
                makeCampaign(
                    "\(prefix)\(random.next(below: 40))", sorting: random.next(below: 5), couponSet: "cs\(random.next(below: 6))",
                    type: types[random.next(below: types.count)], category: categories[random.next(below: categories.count)],
                    carousel: random.next(below: 4) == 0, title: "\(prefix)-\(index)"
                )
            }
        }
        for _ in 0..<20 {
            let basic = generate("s", 30)
            let personalized = generate("s", 10) + generate("p", 10)
            let entries = (0..<5).map { WarplyCouponAvailability(couponSetUUID: "cs\($0)", availability: random.next(below: 3)) }

            // Reference: the seed's steps, written out naively.
            var merged: [WarplyCampaign] = []
            for campaign in basic + personalized {
                if let index = merged.firstIndex(where: { $0.sessionUUID == campaign.sessionUUID }) {
                    merged[index] = campaign
                } else {
                    merged.append(campaign)
                }
            }
            for index in merged.indices {
                if let entry = entries.last(where: { $0.couponSetUUID == merged[index].couponSetUUID }) {
                    merged[index].couponAvailability = entry.availability
                }
            }
            let all = merged.enumerated().sorted { ($0.element.sorting, $0.offset) < ($1.element.sorting, $1.offset) }.map(\.element)
            let shown = all.filter {
                $0.couponAvailability != 0 && $0.type?.lowercased() != "ccms" && $0.type?.lowercased() != "questionnaire"
                    && $0.offerCategory?.lowercased() != "telco"
            }

            let result = WarplyCampaignProcessing.process(basic: basic, personalized: personalized, availability: entries)
            #expect(result.all == all)
            #expect(result.campaigns == shown.filter { !$0.isCarousel })
            #expect(result.carousel == shown.filter(\.isCarousel))
        }
    }

    @Test("processing leaves the other fields of a campaign untouched")
    func otherFieldsUntouched() {
        let full = WarplyCampaign(
            sessionUUID: "full", indexURL: "https://a.example/i", title: "T", subtitle: "S", offerCategory: "fuel",
            logoURL: "https://a.example/l.png", couponSetUUID: "cs", sorting: 3, type: "coupon", bannerImage: "b", bannerImageMobile: "bm",
            couponImage: "ci", campaignURL: "https://a.example/c", filter: "all", startDate: WarplyTimestamp("2026-01-01 00:00:00"),
            endDate: WarplyTimestamp("2026-12-31 23:59:59"), communicationCategory: "rewards"
        )
        let result = WarplyCampaignProcessing.process(basic: [full], personalized: [], availability: availability(("cs", 8)))
        var expected = full
        expected.couponAvailability = 8
        #expect(result.campaigns == [expected])
    }

    @Test("the unauthenticated flow (sorted, unfiltered) keeps every kind of campaign")
    func unauthenticatedFlowIsUnfiltered() {
        let basic = [
            makeCampaign("ccms", sorting: 2, type: "ccms"), makeCampaign("telco", sorting: 1, category: "telco"),
            makeCampaign("zero", sorting: 0, availability: 0), makeCampaign("carousel", sorting: 3, carousel: true),
        ]
        #expect(ids(WarplyCampaignProcessing.sorted(basic)) == ["zero", "telco", "ccms", "carousel"])
    }
}

// MARK: - Coupons

@Suite("WarplyCouponProcessing (unit)", .bounded)
struct WarplyCouponProcessingUnitTests {
    @Test("active keeps status 1 only")
    func activeFiltersStatus() {
        let coupons = [
            makeCoupon("a1", status: 1), makeCoupon("r0", status: 0), makeCoupon("x2", status: 2), makeCoupon("neg", status: -1),
            makeCoupon("a2", status: 1),
        ]
        #expect(couponIDs(WarplyCouponProcessing.active(coupons)) == ["a1", "a2"])
        #expect(WarplyCouponProcessing.active(coupons).allSatisfy { $0.isActive })
    }

    @Test("active: soonest expiration first, across date formats and offsets")
    func activeSortsByExpiration() {
        let coupons = [
            makeCoupon("dec", expiration: "2026-12-31 23:59:00"),
            makeCoupon("mar-utc", expiration: "2026-03-01 09:00:00+00:00"),  // 11:00 in Athens
            makeCoupon("mar-local", expiration: "2026-03-01 10:00"),  // 10:00 in Athens: earlier
            makeCoupon("jan-micro", expiration: "2026-01-15 08:30:00.250000"),
            makeCoupon("feb-day", expiration: "2026-02-01"),
        ]
        #expect(couponIDs(WarplyCouponProcessing.active(coupons)) == ["jan-micro", "feb-day", "mar-local", "mar-utc", "dec"])
    }

    @Test("active: coupons without a readable expiration come last, in their order")
    func activeUndatedLast() {
        let coupons = [
            makeCoupon("none-1"), makeCoupon("late", expiration: "2027-01-01 00:00:00"), makeCoupon("garbage", expiration: "soon"),
            makeCoupon("early", expiration: "2026-01-01 00:00:00"), makeCoupon("none-2"), makeCoupon("blank", expiration: ""),
        ]
        #expect(couponIDs(WarplyCouponProcessing.active(coupons)) == ["early", "late", "none-1", "garbage", "none-2", "blank"])
    }

    @Test("active: equal expirations keep their order")
    func activeTiesStable() {
        let coupons = (0..<30).map { makeCoupon("c\($0)", expiration: $0 % 2 == 0 ? "2026-05-05 10:00:00" : "2026-05-05 10:00") }
        #expect(couponIDs(WarplyCouponProcessing.active(coupons)) == (0..<30).map { "c\($0)" })
    }

    @Test("redeemed keeps status 0 only")
    func redeemedFiltersStatus() {
        let coupons = [makeCoupon("a", status: 1), makeCoupon("r1", status: 0), makeCoupon("x", status: 3), makeCoupon("r2", status: 0)]
        #expect(couponIDs(WarplyCouponProcessing.redeemed(coupons)) == ["r1", "r2"])
        #expect(WarplyCouponProcessing.redeemed(coupons).allSatisfy { $0.isRedeemed })
    }

    @Test("redeemed: most recently redeemed first, undated last, ties in order")
    func redeemedSortsNewestFirst() {
        let coupons = [
            makeCoupon("undated-1", status: 0), makeCoupon("jan", status: 0, redeemed: "2026-01-10 12:00:00"),
            makeCoupon("tie-a", status: 0, redeemed: "2026-02-01 08:00:00"), makeCoupon("garbage", status: 0, redeemed: "yesterday"),
            makeCoupon("mar", status: 0, redeemed: "2026-03-05 09:00:00+02:00"),
            makeCoupon("tie-b", status: 0, redeemed: "2026-02-01 06:00:00Z"),
            makeCoupon("undated-2", status: 0),
        ]
        // tie-b is 06:00 UTC = 08:00 Athens (winter): the same instant as tie-a.
        #expect(
            couponIDs(WarplyCouponProcessing.redeemed(coupons)) == ["mar", "tie-a", "tie-b", "jan", "undated-1", "garbage", "undated-2"])
    }

    @Test("active sorts by expiration only; redeemed by redeemed date only")
    func eachListUsesItsOwnDate() {
        let active = [
            makeCoupon("a", expiration: "2026-02-01 00:00:00", redeemed: "2020-01-01 00:00:00"),
            makeCoupon("b", expiration: "2026-01-01 00:00:00", redeemed: "2030-01-01 00:00:00"),
        ]
        #expect(couponIDs(WarplyCouponProcessing.active(active)) == ["b", "a"])
        let redeemed = [
            makeCoupon("a", status: 0, expiration: "2030-01-01 00:00:00", redeemed: "2026-01-01 00:00:00"),
            makeCoupon("b", status: 0, expiration: "2020-01-01 00:00:00", redeemed: "2026-02-01 00:00:00"),
        ]
        #expect(couponIDs(WarplyCouponProcessing.redeemed(redeemed)) == ["b", "a"])
    }

    @Test("empty input, and lists the other status only, give empty lists")
    func emptyLists() {
        #expect(WarplyCouponProcessing.active([]).isEmpty)
        #expect(WarplyCouponProcessing.redeemed([]).isEmpty)
        #expect(WarplyCouponProcessing.active([makeCoupon("r", status: 0)]).isEmpty)
        #expect(WarplyCouponProcessing.redeemed([makeCoupon("a", status: 1)]).isEmpty)
    }

    @Test("both orders match a reference stable sort on 300 generated coupons")
    func matchesReference() {
        var random = SeededGenerator(seed: 2026)
        let days = ["2026-01-0\(1)", "2026-01-02", "2026-01-03"]
        let coupons = (0..<300).map { index -> WarplyCoupon in
            let date: String? = random.next(below: 5) == 0 ? nil : "\(days[random.next(below: 3)]) 10:00:00"
            return makeCoupon("c\(index)", status: random.next(below: 3) == 0 ? 0 : 1, expiration: date, redeemed: date)
        }
        func reference(_ status: Int, newestFirst: Bool) -> [String] {
            coupons.enumerated().filter { $0.element.status == status }.sorted { left, right in
                let l = (newestFirst ? left.element.redeemedDate : left.element.expiration)?.date
                let r = (newestFirst ? right.element.redeemedDate : right.element.expiration)?.date
                switch (l, r) {
                case let (l?, r?) where l != r: return newestFirst ? l > r : l < r
                case (_?, nil): return true
                case (nil, _?): return false
                default: return left.offset < right.offset
                }
            }.map { $0.element.id ?? "" }
        }
        #expect(couponIDs(WarplyCouponProcessing.active(coupons)) == reference(1, newestFirst: false))
        #expect(couponIDs(WarplyCouponProcessing.redeemed(coupons)) == reference(0, newestFirst: true))
    }
}
