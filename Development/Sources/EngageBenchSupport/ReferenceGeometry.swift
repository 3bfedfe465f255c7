@_spi(EngageProvider) import EngageCore
import Foundation

/// The reference method's geometry: great-circle distances and the latitude/longitude boxes its SQL
/// query selects by, the same formulas the provider's index uses, written here so that the baseline
/// owes nothing to the code it is compared with.
enum ReferenceGeometry {
    /// The mean Earth radius the provider and the Dash wallet use, in metres (IUGG).
    static let earthRadiusMeters = 6_371_009.0

    /// The haversine distance in metres between two points given in degrees.
    static func distance(latitude lat1: Double, longitude lon1: Double, latitude lat2: Double, longitude lon2: Double) -> Double {
        let radians = Double.pi / 180
        let halfDeltaPhi = (lat2 - lat1) * radians / 2
        let halfDeltaLambda = (lon2 - lon1) * radians / 2
        let a =
            sin(halfDeltaPhi) * sin(halfDeltaPhi) + cos(lat1 * radians) * cos(lat2 * radians) * sin(halfDeltaLambda) * sin(halfDeltaLambda)
        return 2 * earthRadiusMeters * asin(min(1, a.squareRoot()))
    }

    /// A rectangle in degrees, `minLongitude <= maxLongitude`.
    struct Box {
        var minLatitude: Double
        var maxLatitude: Double
        var minLongitude: Double
        var maxLongitude: Double
    }

    /// The boxes that cover a circle of `radiusMeters` around `center`: one, or two where the circle
    /// crosses the antimeridian, or a band of every longitude where it reaches a pole.
    static func boundingBoxes(around center: GeoPoint, radiusMeters: Double) -> [Box] {
        let margin = 1e-7  // degrees, about 1 cm
        let angular = max(0, radiusMeters) / earthRadiusMeters
        guard angular < .pi else { return [Box(minLatitude: -90, maxLatitude: 90, minLongitude: -180, maxLongitude: 180)] }
        let degrees = 180 / Double.pi
        let minLatitude = center.latitude - angular * degrees - margin
        let maxLatitude = center.latitude + angular * degrees + margin
        if minLatitude <= -90 || maxLatitude >= 90 {
            return [Box(minLatitude: max(-90, minLatitude), maxLatitude: min(90, maxLatitude), minLongitude: -180, maxLongitude: 180)]
        }
        // The widest longitude span of a spherical cap: asin(sin δ / cos φ).
        let ratio = sin(angular) / cos(center.latitude / degrees)
        guard ratio < 1 else { return [Box(minLatitude: minLatitude, maxLatitude: maxLatitude, minLongitude: -180, maxLongitude: 180)] }
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

extension Duration {
    /// The duration in seconds as a `Double`, for ratios and rates.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
