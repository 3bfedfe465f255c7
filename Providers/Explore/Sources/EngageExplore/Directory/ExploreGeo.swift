@_spi(EngageProvider) import EngageCore
import Foundation

/// Great-circle geometry for the directory: the distance every query uses and the bounding boxes that
/// select candidates before the exact check.
package enum ExploreGeo {
    /// The Earth radius of the reference apps' distance, in metres.
    public static let earthRadiusMeters = 6_371_009.0
    /// 20 miles in metres, the reference apps' default radius.
    public static let twentyMilesMeters = 32_186.88

    /// Haversine distance between two points in degrees, in metres on a sphere of ``earthRadiusMeters``.
    ///
    /// Every query and the brute-force reference use this one function, so "within the radius" means
    /// the same thing everywhere, down to the last bit.
    @inline(__always)
    public static func distance(latitude lat1: Double, longitude lon1: Double, latitude lat2: Double, longitude lon2: Double) -> Double {
        let radians = Double.pi / 180
        let phi1 = lat1 * radians
        let phi2 = lat2 * radians
        let halfDeltaPhi = (lat2 - lat1) * radians / 2
        let halfDeltaLambda = (lon2 - lon1) * radians / 2
        let sinPhi = sin(halfDeltaPhi)
        let sinLambda = sin(halfDeltaLambda)
        let a = sinPhi * sinPhi + cos(phi1) * cos(phi2) * sinLambda * sinLambda
        return 2 * earthRadiusMeters * asin(min(1, a.squareRoot()))
    }

    /// Distance between two points, in metres.
    public static func distance(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        distance(latitude: a.latitude, longitude: a.longitude, latitude: b.latitude, longitude: b.longitude)
    }

    /// A latitude/longitude rectangle in degrees (`minLongitude <= maxLongitude`; never crosses the
    /// antimeridian: a circle that does is covered by two boxes).
    public struct Box: Sendable, Hashable {
        /// Southern edge.
        public var minLatitude: Double
        /// Northern edge.
        public var maxLatitude: Double
        /// Western edge.
        public var minLongitude: Double
        /// Eastern edge.
        public var maxLongitude: Double

        /// A box; the caller keeps `min <= max`.
        public init(minLatitude: Double, maxLatitude: Double, minLongitude: Double, maxLongitude: Double) {
            self.minLatitude = minLatitude
            self.maxLatitude = maxLatitude
            self.minLongitude = minLongitude
            self.maxLongitude = maxLongitude
        }

        /// Whether the point lies in the box (edges included).
        public func contains(latitude: Double, longitude: Double) -> Bool {
            latitude >= minLatitude && latitude <= maxLatitude && longitude >= minLongitude && longitude <= maxLongitude
        }
    }

    /// Boxes that together contain every point within `radiusMeters` of `center` (one box, or two
    /// when the circle crosses the antimeridian; a circle around a pole spans every longitude).
    ///
    /// The boxes are slightly larger than the circle (by about a centimetre), so rounding can never
    /// exclude a point on the edge; the exact distance check decides.
    public static func boundingBoxes(around center: GeoPoint, radiusMeters: Double) -> [Box] {
        let margin = 1e-7  // degrees, about 1 cm
        let angular = max(0, radiusMeters) / earthRadiusMeters  // radians
        guard angular < .pi else { return [Box(minLatitude: -90, maxLatitude: 90, minLongitude: -180, maxLongitude: 180)] }
        let degrees = 180 / Double.pi
        let minLatitude = center.latitude - angular * degrees - margin
        let maxLatitude = center.latitude + angular * degrees + margin
        // The circle contains a pole: every longitude is in reach near it.
        if minLatitude <= -90 || maxLatitude >= 90 {
            return [Box(minLatitude: max(-90, minLatitude), maxLatitude: min(90, maxLatitude), minLongitude: -180, maxLongitude: 180)]
        }
        // The widest longitude span of a spherical cap (reached north of the centre's parallel in the
        // northern hemisphere): asin(sin δ / cos φ).
        let ratio = sin(angular) / cos(center.latitude / degrees)
        guard ratio < 1 else {
            return [Box(minLatitude: minLatitude, maxLatitude: maxLatitude, minLongitude: -180, maxLongitude: 180)]
        }
        let deltaLongitude = asin(ratio) * degrees + margin
        let west = center.longitude - deltaLongitude
        let east = center.longitude + deltaLongitude
        if west < -180 {
            return [
                Box(minLatitude: minLatitude, maxLatitude: maxLatitude, minLongitude: west + 360, maxLongitude: 180),
                Box(minLatitude: minLatitude, maxLatitude: maxLatitude, minLongitude: -180, maxLongitude: east),
            ]
        }
        if east > 180 {
            return [
                Box(minLatitude: minLatitude, maxLatitude: maxLatitude, minLongitude: west, maxLongitude: 180),
                Box(minLatitude: minLatitude, maxLatitude: maxLatitude, minLongitude: -180, maxLongitude: east - 360),
            ]
        }
        return [Box(minLatitude: minLatitude, maxLatitude: maxLatitude, minLongitude: west, maxLongitude: east)]
    }
}
