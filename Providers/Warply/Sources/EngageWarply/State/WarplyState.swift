@_spi(EngageProvider) import EngageCore

/// The provider's in-memory state: the last campaigns, coupons, coupon sets, merchants, carousel,
/// supermarket campaign, market pass, CCMS offers and seasonal list, with the seed's getters and
/// filters. Thread-safe (one lock; every accessor copies values in or out).
///
/// Operations fill it as they fetch; the app may also set values (for example CCMS offers it got
/// elsewhere). Setters that the seed announced publish their event on the bus. A logout empties it.
///
/// ```swift
/// let warply = try await engage.provider(WarplyProvider.self)
/// _ = try await warply.campaigns()
/// let shown = warply.state.campaignList      // filtered and sorted
/// let everything = warply.state.allCampaignList
/// ```
public final class WarplyState: Sendable {
    struct Storage {
        var campaigns: [WarplyCampaign] = []
        var carousel: [WarplyCampaign] = []
        var activeCoupons: [WarplyCoupon] = []
        var redeemedCoupons: [WarplyCoupon] = []
        var couponSets: [WarplyCouponSet] = []
        var merchants: [WarplyMerchant] = []
        var supermarketCampaign: WarplyCampaign?
        var marketPassDetails: WarplyMarketPassDetails?
        var ccmsOffers: [WarplyContextualOffer] = []
        var seasonalList: [WarplySeasonalPackage] = []
        /// Starts at 0; every `clear()` starts the next generation.
        var generation: UInt64 = 0
    }

    private let storage = Locked(Storage())
    private let events: EventBus?

    /// An empty state publishing on `events`.
    public init(events: EventBus? = nil) {
        self.events = events
    }

    // MARK: Generations

    /// The state's generation: every ``clear()`` (a logout, a new session) starts the next one. An
    /// operation reads it before its request and passes it to the setter of its answer, which stores
    /// nothing when the state was cleared meanwhile: an answer for a session that has ended never
    /// fills the next user's state.
    package var generation: UInt64 { storage.withLock { $0.generation } }

    /// Applies `update` under the lock, unless `generation` is given and is no longer the current one;
    /// returns whether it was applied.
    @discardableResult
    private func write(since generation: UInt64?, _ update: (inout Storage) -> Void) -> Bool {
        storage.withLock { storage in
            guard generation == nil || generation == storage.generation else { return false }
            update(&storage)
            return true
        }
    }

    // MARK: Campaigns

    /// Stores `campaigns` sorted by `sorting` (ties keep their order) and publishes `campaigns_retrieved`.
    public func setCampaignList(_ campaigns: [WarplyCampaign]) {
        setCampaignList(campaigns, since: nil)
    }

    /// ``setCampaignList(_:)`` unless the state was cleared since `generation`.
    package func setCampaignList(_ campaigns: [WarplyCampaign], since generation: UInt64?) {
        let sorted = WarplyCampaignProcessing.sorted(campaigns)
        guard write(since: generation, { $0.campaigns = sorted }) else { return }
        events?.publish(WarplyCampaignsRetrievedEvent(count: sorted.filter(WarplyCampaignProcessing.isShown).count))
    }

    /// The stored campaigns without CCMS, telco and questionnaire campaigns.
    public var campaignList: [WarplyCampaign] { storage.withLock { $0.campaigns }.filter(WarplyCampaignProcessing.isShown) }

    /// Every stored campaign, unfiltered.
    public var allCampaignList: [WarplyCampaign] { storage.withLock { $0.campaigns } }

    /// Stores the carousel campaigns (sorted by `sorting`).
    public func setCarouselList(_ campaigns: [WarplyCampaign]) {
        setCarouselList(campaigns, since: nil)
    }

    /// ``setCarouselList(_:)`` unless the state was cleared since `generation`.
    package func setCarouselList(_ campaigns: [WarplyCampaign], since generation: UInt64?) {
        let sorted = WarplyCampaignProcessing.sorted(campaigns)
        write(since: generation) { $0.carousel = sorted }
    }

    /// The carousel campaigns.
    public var carouselList: [WarplyCampaign] { storage.withLock { $0.carousel } }

    /// Stores the supermarket campaign.
    public func setSupermarketCampaign(_ campaign: WarplyCampaign?) {
        setSupermarketCampaign(campaign, since: nil)
    }

    /// ``setSupermarketCampaign(_:)`` unless the state was cleared since `generation`.
    package func setSupermarketCampaign(_ campaign: WarplyCampaign?, since generation: UInt64?) {
        write(since: generation) { $0.supermarketCampaign = campaign }
    }

    /// The supermarket campaign, if fetched.
    public var supermarketCampaign: WarplyCampaign? { storage.withLock { $0.supermarketCampaign } }

    // MARK: Coupons

    /// Stores the active coupons among `coupons` (status 1), soonest expiration first, and publishes
    /// `coupons_fetched`.
    public func setCouponList(_ coupons: [WarplyCoupon]) {
        let active = WarplyCouponProcessing.active(coupons)
        let redeemedCount = storage.withLock { storage in
            storage.activeCoupons = active
            return storage.redeemedCoupons.count
        }
        events?.publish(WarplyCouponsRetrievedEvent(activeCount: active.count, redeemedCount: redeemedCount))
    }

    /// Stores both lists of `coupons` (``setOldCouponList(_:)`` then ``setCouponList(_:)``) in one
    /// step, unless the state was cleared since `generation`.
    package func setCouponLists(_ coupons: [WarplyCoupon], since generation: UInt64?) {
        let active = WarplyCouponProcessing.active(coupons)
        let redeemed = WarplyCouponProcessing.redeemed(coupons)
        let stored = write(since: generation) { storage in
            storage.activeCoupons = active
            storage.redeemedCoupons = redeemed
        }
        guard stored else { return }
        events?.publish(WarplyCouponsRetrievedEvent(activeCount: active.count, redeemedCount: redeemed.count))
    }

    /// The active coupons.
    public var couponList: [WarplyCoupon] { storage.withLock { $0.activeCoupons } }

    /// Stores the redeemed coupons among `coupons` (status 0), newest redemption first.
    public func setOldCouponList(_ coupons: [WarplyCoupon]) {
        let redeemed = WarplyCouponProcessing.redeemed(coupons)
        storage.withLock { $0.redeemedCoupons = redeemed }
    }

    /// The redeemed coupons.
    public var oldCouponList: [WarplyCoupon] { storage.withLock { $0.redeemedCoupons } }

    /// Stores the coupon sets.
    public func setCouponSetList(_ couponSets: [WarplyCouponSet]) {
        setCouponSetList(couponSets, since: nil)
    }

    /// ``setCouponSetList(_:)`` unless the state was cleared since `generation`.
    package func setCouponSetList(_ couponSets: [WarplyCouponSet], since generation: UInt64?) {
        write(since: generation) { $0.couponSets = couponSets }
    }

    /// The coupon sets.
    public var couponSetList: [WarplyCouponSet] { storage.withLock { $0.couponSets } }

    // MARK: Merchants, market pass, CCMS, seasonal

    /// Stores the merchants.
    public func setMerchantList(_ merchants: [WarplyMerchant]) {
        setMerchantList(merchants, since: nil)
    }

    /// ``setMerchantList(_:)`` unless the state was cleared since `generation`.
    package func setMerchantList(_ merchants: [WarplyMerchant], since generation: UInt64?) {
        write(since: generation) { $0.merchants = merchants }
    }

    /// The merchants.
    public var merchantList: [WarplyMerchant] { storage.withLock { $0.merchants } }

    /// Stores the market pass details and publishes `market_pass_details_fetched`.
    public func setMarketPassDetails(_ details: WarplyMarketPassDetails?) {
        setMarketPassDetails(details, since: nil)
    }

    /// ``setMarketPassDetails(_:)`` unless the state was cleared since `generation`.
    package func setMarketPassDetails(_ details: WarplyMarketPassDetails?, since generation: UInt64?) {
        guard write(since: generation, { $0.marketPassDetails = details }) else { return }
        if details != nil { events?.publish(WarplyMarketPassDetailsEvent()) }
    }

    /// The market pass details, if fetched.
    public var marketPassDetails: WarplyMarketPassDetails? { storage.withLock { $0.marketPassDetails } }

    /// Stores the CCMS contextual offers and publishes `ccms_retrieved`.
    public func setCCMSLoyaltyCampaigns(_ offers: [WarplyContextualOffer]) {
        storage.withLock { $0.ccmsOffers = offers }
        events?.publish(WarplyCCMSRetrievedEvent(count: offers.count))
    }

    /// The CCMS contextual offers.
    public var ccmsLoyaltyCampaigns: [WarplyContextualOffer] { storage.withLock { $0.ccmsOffers } }

    /// Stores the seasonal list and publishes `seasonals_retrieved`.
    public func setSeasonalList(_ packages: [WarplySeasonalPackage]) {
        storage.withLock { $0.seasonalList = packages }
        events?.publish(WarplySeasonalsRetrievedEvent(count: packages.count))
    }

    /// The seasonal list.
    public var seasonalList: [WarplySeasonalPackage] { storage.withLock { $0.seasonalList } }

    /// Forgets everything (logout) and starts a new generation: an answer to a request sent before
    /// is not stored.
    public func clear() {
        storage.withLock { storage in
            storage = Storage(generation: storage.generation &+ 1)
        }
    }
}
