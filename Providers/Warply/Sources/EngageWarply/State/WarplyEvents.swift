import EngageCore

/// Published when campaigns were fetched and stored (`campaigns_retrieved`).
public struct WarplyCampaignsRetrievedEvent: EngageEvent, Hashable {
    public var name: String { "campaigns_retrieved" }
    public var providerID: ProviderID? { .warply }
    /// How many campaigns are now shown.
    public var count: Int
    public var attributes: [String: String] { ["count": String(count)] }
}

/// Published when the user's coupons were fetched and stored (`coupons_fetched`).
public struct WarplyCouponsRetrievedEvent: EngageEvent, Hashable {
    public var name: String { "coupons_fetched" }
    public var providerID: ProviderID? { .warply }
    /// Active coupons.
    public var activeCount: Int
    /// Redeemed coupons.
    public var redeemedCount: Int
    public var attributes: [String: String] { ["active": String(activeCount), "redeemed": String(redeemedCount)] }
}

/// Published when market pass details were fetched (`market_pass_details_fetched`).
public struct WarplyMarketPassDetailsEvent: EngageEvent, Hashable {
    public var name: String { "market_pass_details_fetched" }
    public var providerID: ProviderID? { .warply }
}

/// Published when the CCMS contextual offers were set (`ccms_retrieved`).
public struct WarplyCCMSRetrievedEvent: EngageEvent, Hashable {
    public var name: String { "ccms_retrieved" }
    public var providerID: ProviderID? { .warply }
    /// How many offers are set.
    public var count: Int
    public var attributes: [String: String] { ["count": String(count)] }
}

/// Published when the seasonal list was set (`seasonals_retrieved`).
public struct WarplySeasonalsRetrievedEvent: EngageEvent, Hashable {
    public var name: String { "seasonals_retrieved" }
    public var providerID: ProviderID? { .warply }
    /// How many packages are set.
    public var count: Int
    public var attributes: [String: String] { ["count": String(count)] }
}
