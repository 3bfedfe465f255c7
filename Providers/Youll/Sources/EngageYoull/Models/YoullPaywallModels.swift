import Foundation

/// A paywall as Youll configures it: what it says, what it sells, and whether it can be closed. The
/// app draws it; the purchase goes through the store, then `registerTransaction`.
public struct YoullPaywallConfig: Codable, Sendable, Hashable, Identifiable {
    /// The configuration's id.
    public var id: String
    /// Where the app shows it, e.g. `onboarding` or `content_locked`.
    public var placement: String
    /// The headline.
    public var title: String
    /// The line under the headline, if any.
    public var subtitle: String?
    /// The selling points, in order.
    public var features: [String]
    /// The products offered, in display order (at least one).
    public var products: [YoullPaywallProduct]
    /// Whether the user may close the paywall without buying.
    public var isDismissible: Bool
    /// Whether this is the super paywall (the app-wide offer) rather than a placement's.
    public var isSuperPaywall: Bool
    /// The background image, if any.
    public var imageURL: URL?

    /// The product to preselect: the highlighted one, else the first.
    public var preselectedProduct: YoullPaywallProduct? { products.first(where: \.isHighlighted) ?? products.first }

    init(wire: WirePaywallConfig) throws {
        let what = "paywall \(wire.id.prefix(64))"
        guard !wire.id.isEmpty else { throw YoullDecoding.invalid("id", "\"\"", of: "a paywall") }
        guard !wire.products.isEmpty else { throw YoullDecoding.invalid("products", "[]", of: what) }
        id = wire.id
        placement = wire.placement
        title = wire.title
        subtitle = wire.subtitle
        features = wire.features
        products = try wire.products.map { try YoullPaywallProduct(wire: $0, of: what) }
        isDismissible = wire.dismissible
        isSuperPaywall = wire.isSuper
        imageURL = wire.imageUrl.flatMap(URL.init(string:))
    }
}

/// One product of a paywall: a store product id with its billing period and trial.
public struct YoullPaywallProduct: Codable, Sendable, Hashable, Identifiable {
    /// A billing period. Youll's are `week`, `month`, `year` and `lifetime`; a period added later
    /// arrives as its own value rather than failing the paywall.
    public struct Period: RawRepresentable, Codable, Sendable, Hashable {
        /// The period as Youll names it.
        public var rawValue: String
        /// A period named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Billed weekly.
        public static let week = Period(rawValue: "week")
        /// Billed monthly.
        public static let month = Period(rawValue: "month")
        /// Billed yearly.
        public static let year = Period(rawValue: "year")
        /// One purchase, no renewal.
        public static let lifetime = Period(rawValue: "lifetime")
    }

    /// The store's product id (App Store or Play), as the app passes it to the store.
    public var id: String
    /// How often it is billed.
    public var period: Period
    /// The free trial, in days (0: none).
    public var trialDays: Int
    /// Whether the paywall highlights it (the recommended choice).
    public var isHighlighted: Bool
    /// A short label shown on it, e.g. "Best value".
    public var badge: String?

    init(wire: WirePaywallProduct, of paywall: String) throws {
        guard !wire.productId.isEmpty else { throw YoullDecoding.invalid("product_id", "\"\"", of: paywall) }
        guard !wire.period.isEmpty else { throw YoullDecoding.invalid("period", "\"\"", of: paywall) }
        let trial = wire.trialDays ?? 0
        guard (0...3_650).contains(trial) else { throw YoullDecoding.invalid("trial_days", "\(trial)", of: paywall) }
        id = wire.productId
        period = Period(rawValue: wire.period)
        trialDays = trial
        isHighlighted = wire.highlighted
        badge = wire.badge
    }
}

/// That the user viewed a content item, as Youll recorded it.
public struct YoullViewedContent: Codable, Sendable, Hashable {
    /// The content item's id.
    public var contentID: String
    /// When Youll recorded the view.
    public var viewedAt: Date

    init(wire: WireViewedContent) throws {
        contentID = wire.contentId
        viewedAt = try YoullDecoding.date(wire.viewedAt, field: "viewed_at", of: "the view of \(wire.contentId.prefix(64))")
    }
}
