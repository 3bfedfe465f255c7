@_spi(EngageProvider) import EngageCore
import Foundation

/// A map's visible area: a latitude/longitude rectangle whose merchants a map shows
/// (``ExploreMerchantQuery/inRegion(_:center:page:)``).
///
/// A region whose western edge lies east of its eastern edge crosses the antimeridian: a Pacific view
/// from 170° E to 170° W is `ExploreRegion(south: -25, west: 170, north: -10, east: -170)`. Edges are
/// included; `west: -180, east: 180` spans every longitude.
///
/// ```swift
/// let visible = try ExploreRegion(south: 40.70, west: -74.02, north: 40.80, east: -73.93)
/// let page = try await explore.merchants(.inRegion(visible, center: mapCenter))
/// ```
public struct ExploreRegion: Codable, Sendable, Hashable {
    /// The southern edge, in degrees (-90 to 90, at most ``north``).
    public let south: Double
    /// The western edge, in degrees (-180 to 180).
    public let west: Double
    /// The northern edge, in degrees (-90 to 90).
    public let north: Double
    /// The eastern edge, in degrees (-180 to 180); west of ``west`` when the region crosses the antimeridian.
    public let east: Double

    /// A region with these edges.
    ///
    /// - Throws: `.invalidInput` for a value that is not finite, a latitude outside -90...90, a
    ///   longitude outside -180...180, or a southern edge north of the northern one.
    public init(south: Double, west: Double, north: Double, east: Double) throws(EngageError) {
        if let problem = Self.problem(south: south, west: west, north: north, east: east) {
            throw EngageError(.invalidInput, "The map region is not usable: \(problem).", providerID: .explore)
        }
        self.south = south
        self.west = west
        self.north = north
        self.east = east
    }

    /// Decodes the four edges, refusing the values ``init(south:west:north:east:)`` refuses.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let (south, west) = (try container.decode(Double.self, forKey: .south), try container.decode(Double.self, forKey: .west))
        let (north, east) = (try container.decode(Double.self, forKey: .north), try container.decode(Double.self, forKey: .east))
        if let problem = Self.problem(south: south, west: west, north: north, east: east) {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "The map region is not usable: \(problem)."))
        }
        self.south = south
        self.west = west
        self.north = north
        self.east = east
    }

    private enum CodingKeys: String, CodingKey {
        case south, west, north, east
    }

    private static func problem(south: Double, west: Double, north: Double, east: Double) -> String? {
        guard [south, west, north, east].allSatisfy(\.isFinite) else { return "an edge is not a finite number" }
        guard (-90...90).contains(south), (-90...90).contains(north) else { return "latitudes must be between -90 and 90" }
        guard (-180...180).contains(west), (-180...180).contains(east) else { return "longitudes must be between -180 and 180" }
        guard south <= north else { return "the southern edge \(south) is north of the northern edge \(north)" }
        return nil
    }

    /// Whether the region crosses the antimeridian (its western edge lies east of its eastern edge).
    package var crossesAntimeridian: Bool { west > east }

    /// Whether the point lies in the region (edges included).
    package func contains(latitude: Double, longitude: Double) -> Bool {
        guard latitude >= south, latitude <= north else { return false }
        return crossesAntimeridian ? longitude >= west || longitude <= east : longitude >= west && longitude <= east
    }

    /// The region as boxes that never cross the antimeridian (two when it does).
    var boxes: [ExploreGeo.Box] {
        guard crossesAntimeridian else {
            return [ExploreGeo.Box(minLatitude: south, maxLatitude: north, minLongitude: west, maxLongitude: east)]
        }
        return [
            ExploreGeo.Box(minLatitude: south, maxLatitude: north, minLongitude: west, maxLongitude: 180),
            ExploreGeo.Box(minLatitude: south, maxLatitude: north, minLongitude: -180, maxLongitude: east),
        ]
    }
}
