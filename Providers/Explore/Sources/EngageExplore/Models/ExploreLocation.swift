import Foundation

/// One row of the directory: a place where a merchant sells (or its online presence).
public struct ExploreLocation: Codable, Sendable, Hashable, Identifiable {
    /// The row's id in the directory file.
    public var id: Int64
    /// Latitude, if the row is located.
    public var latitude: Double?
    /// Longitude, if the row is located.
    public var longitude: Double?
    /// Distance from the query's centre, in metres, when both are known.
    public var distanceMeters: Double?
    /// Address lines, without empty ones.
    public var addressLines: [String]
    /// City.
    public var city: String?
    /// Territory (state, region).
    public var territory: String?
    /// Phone number.
    public var phone: String?
    /// A maps link.
    public var googleMaps: String?
    /// A plus code.
    public var plusCode: String?

    /// A location.
    public init(
        id: Int64, latitude: Double? = nil, longitude: Double? = nil, distanceMeters: Double? = nil, addressLines: [String] = [],
        city: String? = nil, territory: String? = nil, phone: String? = nil, googleMaps: String? = nil, plusCode: String? = nil
    ) {
        self.id = id
        self.latitude = latitude
        self.longitude = longitude
        self.distanceMeters = distanceMeters
        self.addressLines = addressLines
        self.city = city
        self.territory = territory
        self.phone = phone
        self.googleMaps = googleMaps
        self.plusCode = plusCode
    }
}
