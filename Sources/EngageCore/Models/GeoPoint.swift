import Foundation

/// A point on Earth in degrees (WGS 84).
public struct GeoPoint: Codable, Sendable, Hashable, CustomStringConvertible {
    /// Degrees north, in -90...90.
    public var latitude: Double
    /// Degrees east, in -180...180.
    public var longitude: Double

    /// Creates a point; throws `.invalidInput` unless latitude is in -90...90 and longitude in -180...180.
    public init(latitude: Double, longitude: Double) throws(EngageError) {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            throw EngageError(.invalidInput, "(\(latitude), \(longitude)) is not a valid coordinate.")
        }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Decodes `{"latitude", "longitude"}`, rejecting out-of-range coordinates.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let latitude = try container.decode(Double.self, forKey: .latitude)
        let longitude = try container.decode(Double.self, forKey: .longitude)
        do {
            try self.init(latitude: latitude, longitude: longitude)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .latitude, in: container, debugDescription: error.message)
        }
    }

    /// The mean Earth radius used for distances, in metres (IUGG R1).
    public static let earthRadiusMeters = 6_371_008.8

    /// Great-circle (haversine) distance to `other`, in metres, on a sphere of `radius`.
    public func distance(to other: GeoPoint, radius: Double = GeoPoint.earthRadiusMeters) -> Double {
        let lat1 = latitude * .pi / 180
        let lat2 = other.latitude * .pi / 180
        let deltaLat = lat2 - lat1
        let deltaLon = (other.longitude - longitude) * .pi / 180
        let a = sin(deltaLat / 2) * sin(deltaLat / 2) + cos(lat1) * cos(lat2) * sin(deltaLon / 2) * sin(deltaLon / 2)
        return 2 * radius * asin(min(1, sqrt(a)))
    }

    /// `(latitude, longitude)`.
    public var description: String { "(\(latitude), \(longitude))" }
}
