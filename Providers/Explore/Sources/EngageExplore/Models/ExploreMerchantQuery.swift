@_spi(EngageProvider) import EngageCore
import Foundation

/// The reference apps' tabs.
public enum ExploreTab: String, Codable, Sendable, CaseIterable {
    /// Merchants that sell online (`type` online or both).
    case online
    /// Merchants with shops (`type` physical or both).
    case nearby
    /// Every merchant.
    case all
}

/// How merchants are ordered. Ties are broken by the merchant's directory order, so pages are stable.
public enum ExploreMerchantSort: String, Codable, Sendable, CaseIterable {
    /// By name, ignoring case and diacritics.
    case name
    /// By the distance of the merchant's closest location (needs a centre); unlocated merchants last.
    case distance
    /// By best discount, largest first.
    case discount
}

/// A search radius. The reference apps offer 1, 5, 20 and 50 miles or kilometres; any finite radius
/// in metres works.
public struct ExploreRadius: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The radius in metres: finite and at least 0 (negative and non-finite values are stored as 0).
    public var meters: Double {
        didSet { meters = Self.sanitized(meters) }
    }

    /// A radius in metres (negative and non-finite values count as 0).
    public init(meters: Double) { self.meters = Self.sanitized(meters) }

    /// Decodes `meters`, refusing a negative or non-finite value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let meters = try container.decode(Double.self, forKey: .meters)
        guard meters.isFinite, meters >= 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: .meters, in: container, debugDescription: "meters must be finite and 0 or more, not \(meters).")
        }
        self.init(meters: meters)
    }

    private enum CodingKeys: String, CodingKey {
        case meters
    }

    private static func sanitized(_ meters: Double) -> Double {
        meters.isFinite ? max(0, meters) : 0
    }

    /// `value` miles (1 mile = 1 609.344 m).
    public static func miles(_ value: Double) -> Self { Self(meters: value * 1_609.344) }
    /// `value` kilometres.
    public static func kilometers(_ value: Double) -> Self { Self(meters: value * 1_000) }
    /// The reference apps' choices: 1, 5, 20 and 50 in the user's unit.
    public static func presets(metric: Bool) -> [Self] {
        [1, 5, 20, 50].map { metric ? .kilometers($0) : .miles($0) }
    }

    public var description: String { "\(meters) m" }
}

/// Which directory merchants to list.
///
/// ```swift
/// var query = ExploreMerchantQuery(text: "coffee")
/// query.center = try GeoPoint(latitude: 40.7128, longitude: -74.0060)
/// query.radius = .miles(20)
/// query.sort = .distance
/// let page = try await explore.merchants(query)   // one row per merchant: its closest location
/// ```
public struct ExploreMerchantQuery: Codable, Sendable, Hashable {
    /// Words to find in merchant names (prefix search; any characters are safe).
    public var text: String?
    /// The tab.
    public var tab: ExploreTab
    /// Payment methods to keep (empty: any).
    public var paymentMethods: Set<ExplorePaymentMethod>
    /// Gift-card providers to keep (empty: any).
    public var giftCardProviders: Set<ExploreGiftCardProviderID>
    /// Denomination types to keep (empty: any).
    public var denominationsTypes: Set<ExploreDenominationsType>
    /// The territory (state, region) to keep, compared ignoring case and diacritics.
    public var territory: String?
    /// The point distances are measured from.
    public var center: GeoPoint?
    /// With a centre: only locations within this radius count.
    public var radius: ExploreRadius?
    /// Only locations inside this area count (a map's viewport); online-only merchants have none.
    public var region: ExploreRegion?
    /// The order.
    public var sort: ExploreMerchantSort
    /// The page (100 merchants by default).
    public var page: PageRequest

    /// A query; with no arguments, the first page of every merchant by name.
    public init(
        text: String? = nil, tab: ExploreTab = .all, paymentMethods: Set<ExplorePaymentMethod> = [],
        giftCardProviders: Set<ExploreGiftCardProviderID> = [], denominationsTypes: Set<ExploreDenominationsType> = [],
        territory: String? = nil, center: GeoPoint? = nil, radius: ExploreRadius? = nil, region: ExploreRegion? = nil,
        sort: ExploreMerchantSort = .name, page: PageRequest = PageRequest()
    ) {
        self.text = text
        self.tab = tab
        self.paymentMethods = paymentMethods
        self.giftCardProviders = giftCardProviders
        self.denominationsTypes = denominationsTypes
        self.territory = territory
        self.center = center
        self.radius = radius
        self.region = region
        self.sort = sort
        self.page = page
    }

    /// Merchants with a location within `radius` of `center`, closest first.
    public static func nearby(_ center: GeoPoint, radius: ExploreRadius, page: PageRequest = PageRequest()) -> Self {
        Self(tab: .nearby, center: center, radius: radius, sort: .distance, page: page)
    }

    /// Merchants with a location inside `region` (a map's viewport, across the antimeridian too), paged
    /// like every list: closest to `center` first when there is one (each merchant at its closest
    /// location in the region), else by name (each at its first listed location there).
    public static func inRegion(_ region: ExploreRegion, center: GeoPoint? = nil, page: PageRequest = PageRequest()) -> Self {
        Self(tab: .nearby, center: center, region: region, sort: center == nil ? .name : .distance, page: page)
    }
}
