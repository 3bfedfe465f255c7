@_spi(EngageProvider) import EngageCore

/// Published when campaigns were fetched and stored (`campaigns_retrieved`).
public struct WarplyCampaignsRetrievedEvent: EngageEvent, Hashable {
    /// The event's name on the bus.
    public var name: String { "campaigns_retrieved" }
    /// Always `.warply`.
    public var providerID: ProviderID? { .warply }
    /// How many campaigns are now shown.
    public var count: Int
    /// The counts as text, for named-event subscribers and analytics.
    public var attributes: [String: String] { ["count": String(count)] }
}

/// Published when the user's coupons were fetched and stored (`coupons_fetched`).
public struct WarplyCouponsRetrievedEvent: EngageEvent, Hashable {
    /// The event's name on the bus.
    public var name: String { "coupons_fetched" }
    /// Always `.warply`.
    public var providerID: ProviderID? { .warply }
    /// Active coupons.
    public var activeCount: Int
    /// Redeemed coupons.
    public var redeemedCount: Int
    /// The counts as text, for named-event subscribers and analytics.
    public var attributes: [String: String] { ["active": String(activeCount), "redeemed": String(redeemedCount)] }
}

/// Published when market pass details were fetched (`market_pass_details_fetched`).
public struct WarplyMarketPassDetailsEvent: EngageEvent, Hashable {
    /// The event's name on the bus.
    public var name: String { "market_pass_details_fetched" }
    /// Always `.warply`.
    public var providerID: ProviderID? { .warply }
}

/// Published when the CCMS contextual offers were set (`ccms_retrieved`).
public struct WarplyCCMSRetrievedEvent: EngageEvent, Hashable {
    /// The event's name on the bus.
    public var name: String { "ccms_retrieved" }
    /// Always `.warply`.
    public var providerID: ProviderID? { .warply }
    /// How many offers are set.
    public var count: Int
    /// The counts as text, for named-event subscribers and analytics.
    public var attributes: [String: String] { ["count": String(count)] }
}

/// Published when the seasonal list was set (`seasonals_retrieved`).
public struct WarplySeasonalsRetrievedEvent: EngageEvent, Hashable {
    /// The event's name on the bus.
    public var name: String { "seasonals_retrieved" }
    /// Always `.warply`.
    public var providerID: ProviderID? { .warply }
    /// How many packages are set.
    public var count: Int
    /// The counts as text, for named-event subscribers and analytics.
    public var attributes: [String: String] { ["count": String(count)] }
}
