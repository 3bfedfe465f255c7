import Foundation

/// The seed's campaign rules, as pure functions (so they are tested without a network).
package enum WarplyCampaignProcessing {
    /// What processing a logged-in user's campaigns produces.
    public struct Result: Sendable, Hashable {
        /// The campaigns to show: available, not carousel, no CCMS / telco / questionnaire, sorted.
        public var campaigns: [WarplyCampaign]
        /// The carousel campaigns (`carousel == "true"`), sorted, with the same filters applied.
        public var carousel: [WarplyCampaign]
        /// Everything merged (basic first, then personalized), with availability set, sorted.
        public var all: [WarplyCampaign]
    }

    /// The authenticated flow: merge `basic` and `personalized` (a personalized campaign replaces a
    /// basic one with the same session UUID), set each campaign's `couponAvailability` from its coupon
    /// set's entry in `availability`, drop campaigns whose availability is 0, split out the carousel
    /// items, drop CCMS, telco and questionnaire campaigns, and sort by `sorting` (stable: ties keep
    /// their merged order).
    public static func process(
        basic: [WarplyCampaign], personalized: [WarplyCampaign], availability: [WarplyCouponAvailability]
    ) -> Result {
        var merged: [WarplyCampaign] = []
        var indexBySession: [String: Int] = [:]
        for campaign in basic + personalized {
            if let index = indexBySession[campaign.sessionUUID] {
                merged[index] = campaign
            } else {
                indexBySession[campaign.sessionUUID] = merged.count
                merged.append(campaign)
            }
        }
        let counts = Dictionary(availability.map { ($0.couponSetUUID, $0.availability) }, uniquingKeysWith: { _, last in last })
        for index in merged.indices {
            if let couponSet = merged[index].couponSetUUID, let count = counts[couponSet] {
                merged[index].couponAvailability = count
            }
        }
        let all = sorted(merged)
        let available = all.filter { $0.couponAvailability != 0 }
        let shown = available.filter(isShown)
        return Result(campaigns: shown.filter { !$0.isCarousel }, carousel: shown.filter(\.isCarousel), all: all)
    }

    /// Sorted by `sorting`, ties in their original order.
    public static func sorted(_ campaigns: [WarplyCampaign]) -> [WarplyCampaign] {
        campaigns.enumerated().sorted { left, right in
            left.element.sorting != right.element.sorting ? left.element.sorting < right.element.sorting : left.offset < right.offset
        }.map(\.element)
    }

    /// Whether a campaign belongs in the shown list: not CCMS, not telco, not a questionnaire.
    public static func isShown(_ campaign: WarplyCampaign) -> Bool {
        !campaign.isCCMS && !campaign.isTelco && !campaign.isQuestionnaire
    }
}

/// The seed's coupon rules.
package enum WarplyCouponProcessing {
    /// Active coupons (status 1) sorted by expiration, soonest first; coupons without a readable
    /// expiration last; ties keep their order.
    public static func active(_ coupons: [WarplyCoupon]) -> [WarplyCoupon] {
        stableSorted(coupons.filter { $0.status == WarplyCoupon.activeStatus }) { left, right in
            switch (left.expiration?.date, right.expiration?.date) {
            case let (l?, r?): l < r
            case (_?, nil): true
            default: false
            }
        }
    }

    /// Redeemed coupons (status 0) sorted by redeemed date, newest first; coupons without a readable
    /// date last; ties keep their order.
    public static func redeemed(_ coupons: [WarplyCoupon]) -> [WarplyCoupon] {
        stableSorted(coupons.filter { $0.status == WarplyCoupon.redeemedStatus }) { left, right in
            switch (left.redeemedDate?.date, right.redeemedDate?.date) {
            case let (l?, r?): l > r
            case (_?, nil): true
            default: false
            }
        }
    }

    static func stableSorted<Element>(_ elements: [Element], by areInIncreasingOrder: (Element, Element) -> Bool) -> [Element] {
        elements.enumerated().sorted { left, right in
            if areInIncreasingOrder(left.element, right.element) { return true }
            if areInIncreasingOrder(right.element, left.element) { return false }
            return left.offset < right.offset
        }.map(\.element)
    }
}

/// Newest-first ordering of histories.
enum WarplyHistoryProcessing {
    /// Transactions, newest first (undated last, ties in received order).
    static func newestFirst(_ transactions: [WarplyTransaction]) -> [WarplyTransaction] {
        WarplyCouponProcessing.stableSorted(transactions) { newer($0.date, than: $1.date) }
    }

    /// Points entries, newest first (undated last, ties in received order).
    static func newestFirst(_ entries: [WarplyPointsEntry]) -> [WarplyPointsEntry] {
        WarplyCouponProcessing.stableSorted(entries) { newer($0.date, than: $1.date) }
    }

    private static func newer(_ left: WarplyTimestamp?, than right: WarplyTimestamp?) -> Bool {
        switch (left?.date, right?.date) {
        case let (l?, r?): l > r
        case (_?, nil): true
        default: false
        }
    }
}
