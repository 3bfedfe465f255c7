import Foundation

/// A merchant from any directory (Warply shops, the Explore directory), tagged with its provider.
public struct MerchantSummary: Codable, Sendable, Hashable, Identifiable {
    /// Unique within the provider.
    public var id: String
    /// The directory the merchant comes from.
    public var providerID: ProviderID
    /// The merchant's name.
    public var name: String
    /// A logo image.
    public var logoURL: URL?
    /// The provider's category name, if any.
    public var category: String?
    /// The merchant's location closest to the query point, if it has physical locations.
    public var location: GeoPoint?
    /// Distance from the query point to `location`, in metres.
    public var distanceMeters: Double?
    /// Number of physical locations, when known.
    public var locationCount: Int?
    /// Whether the merchant sells online.
    public var isOnline: Bool
    /// The best discount offered, in percent.
    public var discountPercent: Double?
    /// Provider-specific extras, flat strings only.
    public var attributes: [String: String]

    /// A merchant; everything but the id, provider and name is optional.
    public init(
        id: String, providerID: ProviderID, name: String, logoURL: URL? = nil, category: String? = nil,
        location: GeoPoint? = nil, distanceMeters: Double? = nil, locationCount: Int? = nil, isOnline: Bool = false,
        discountPercent: Double? = nil, attributes: [String: String] = [:]
    ) {
        self.id = id
        self.providerID = providerID
        self.name = name
        self.logoURL = logoURL
        self.category = category
        self.location = location
        self.distanceMeters = distanceMeters
        self.locationCount = locationCount
        self.isOnline = isOnline
        self.discountPercent = discountPercent
        self.attributes = attributes
    }
}

/// Which merchants to ask for.
public struct MerchantQuery: Codable, Sendable, Hashable {
    /// Centre of a "nearby" search.
    public var center: GeoPoint?
    /// Radius around `center`, in metres.
    public var radiusMeters: Double?
    /// Free text to match names against.
    public var text: String?
    /// Which page of results.
    public var page: PageRequest

    /// A query; with no arguments, the first page of every merchant.
    public init(center: GeoPoint? = nil, radiusMeters: Double? = nil, text: String? = nil, page: PageRequest = PageRequest()) {
        self.center = center
        self.radiusMeters = radiusMeters
        self.text = text
        self.page = page
    }

    /// Merchants within `radiusMeters` of `point`.
    public static func near(_ point: GeoPoint, radiusMeters: Double, page: PageRequest = PageRequest()) -> MerchantQuery {
        MerchantQuery(center: point, radiusMeters: radiusMeters, page: page)
    }
}
