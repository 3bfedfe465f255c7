@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageExploreCTX
@_spi(EngageProvider) @testable import EngageExploreGiftCards
import Foundation
import EngageTestTraits
import Testing

/// Map viewport queries: the index against an independent scan, across the antimeridian, paged.
@Suite("Explore map regions", .bounded)
struct ExploreRegionTests {
    /// An independent reading of "inside the region" (not ``ExploreRegion/contains(latitude:longitude:)``).
    private static func inside(_ region: ExploreRegion, _ latitude: Double, _ longitude: Double) -> Bool {
        guard latitude >= region.south && latitude <= region.north else { return false }
        if region.west <= region.east { return longitude >= region.west && longitude <= region.east }
        return longitude >= region.west || longitude <= region.east
    }

    /// What the index must answer, from the raw rows: each merchant with a kept location in the region,
    /// at its closest one to `center` (or its first), with how many it has there.
    private static func expected(
        _ brute: BruteForceDirectory, _ query: ExploreMerchantQuery
    ) throws -> [BruteForceDirectory.Result] {
        let region = try #require(query.region)
        var best: [String: BruteForceDirectory.Result] = [:]
        for row in brute.rows where brute.passes(row, query, hidePiggyOnly: true) {
            guard let latitude = row.latitude, let longitude = row.longitude, inside(region, latitude, longitude) else { continue }
            let distance = query.center.map {
                ExploreGeo.distance(latitude: $0.latitude, longitude: $0.longitude, latitude: latitude, longitude: longitude)
            }
            if let current = best[row.merchantID] {
                var next = current
                next.count += 1
                let closer =
                    (distance ?? 0) < (current.distance ?? 0) || ((distance ?? 0) == (current.distance ?? 0) && row.rowID < current.rowID)
                if closer {
                    next.distance = distance
                    next.rowID = row.rowID
                }
                best[row.merchantID] = next
            } else {
                best[row.merchantID] = .init(merchantID: row.merchantID, rowID: row.rowID, distance: distance, count: 1)
            }
        }
        return best.values.sorted { lhs, rhs in
            lhs.distance != rhs.distance
                ? (lhs.distance ?? 0) < (rhs.distance ?? 0)
                : brute.order[lhs.merchantID, default: 0] < brute.order[rhs.merchantID, default: 0]
        }
    }

    @Test(
        "a region's merchants, closest to the centre first, equal the independent scan, row for row (across the antimeridian too)",
        arguments: [
            (40.55, -74.30, 40.95, -73.70, 40.7128, -74.0060),  // New York
            (-25.0, 170.0, -10.0, -170.0, -18.1248, 178.4501),  // the Pacific, across the antimeridian
            (-60.0, 160.0, 70.0, -160.0, 64.7337, 177.4968),  // a tall band across it, Anadyr to Auckland
            (-90.0, -180.0, 90.0, 180.0, 0.0, 0.0),  // the whole world
        ]
    )
    func regionsEqualTheScan(south: Double, west: Double, north: Double, east: Double, latitude: Double, longitude: Double) throws {
        let (fixture, brute) = try ExploreFixture.world()
        let region = try ExploreRegion(south: south, west: west, north: north, east: east)
        let query = ExploreMerchantQuery.inRegion(region, center: try GeoPoint(latitude: latitude, longitude: longitude))
        let expected = try Self.expected(brute, query)
        #expect(!expected.isEmpty, "the generated world has merchants there")
        let found = try fixture.directory.allPages(query, pageSize: 37).asResults
        #expect(found == expected)
        // Without a centre: the same merchants, by name, each at its first listed location in the region.
        let byName = try fixture.directory.allPages(.inRegion(region), pageSize: 50)
        #expect(Set(byName.map(\.merchantID)) == Set(expected.map(\.merchantID)))
        #expect(
            byName.allSatisfy {
                $0.distanceMeters == nil && Self.inside(region, $0.location.latitude ?? .nan, $0.location.longitude ?? .nan)
            })
        #expect(byName.count == Set(byName.map(\.merchantID)).count, "one row per merchant")
    }

    @Test("a region and a radius combine: only locations in both count")
    func regionAndRadius() throws {
        let (fixture, brute) = try ExploreFixture.world()
        let newYork = try GeoPoint(latitude: 40.7128, longitude: -74.0060)
        var query = ExploreMerchantQuery.inRegion(
            try ExploreRegion(south: 40.70, west: -74.10, north: 41.00, east: -73.80), center: newYork)
        query.radius = .kilometers(10)
        let found = try fixture.directory.allPages(query).asResults
        let inRegion = try Self.expected(brute, query)
        let nearby = Set(brute.nearby(query).map(\.merchantID))
        #expect(
            Set(found.map(\.merchantID)).isSubset(of: nearby) && Set(found.map(\.merchantID)).isSubset(of: Set(inRegion.map(\.merchantID))))
        #expect(found.allSatisfy { ($0.distance ?? .infinity) <= 10_000 })
        #expect(!found.isEmpty)
    }

    @Test("an empty region finds nothing; unusable edges are refused with a clear error, in Swift and in JSON")
    func edges() throws {
        let (fixture, _) = try ExploreFixture.world()
        let empty = try ExploreRegion(south: -1, west: -1, north: -0.5, east: -0.5)  // the open sea off Africa
        #expect(try fixture.directory.merchants(.inRegion(empty)).items.isEmpty)
        let line = try ExploreRegion(south: 10, west: 20, north: 10, east: 20)
        #expect(line.contains(latitude: 10, longitude: 20) && !line.contains(latitude: 10.000001, longitude: 20))

        let refused: [(Double, Double, Double, Double, String)] = [
            (10, 0, 5, 1, "north of the northern edge"), (-91, 0, 0, 1, "latitudes"), (0, 0, 91, 1, "latitudes"),
            (0, -181, 1, 1, "longitudes"), (0, 0, 1, 180.5, "longitudes"), (.nan, 0, 1, 1, "finite"), (0, 0, .infinity, 1, "finite"),
        ]
        for (south, west, north, east, expected) in refused {
            let error = #expect(throws: EngageError.self) { try ExploreRegion(south: south, west: west, north: north, east: east) }
            #expect(error?.code == .invalidInput && error?.message.contains(expected) == true, "\(error?.message ?? "")")
        }
        let decoded = try JSONDecoder().decode(
            ExploreRegion.self, from: Data(#"{"south": -25, "west": 170, "north": -10, "east": -170}"#.utf8))
        #expect(
            decoded.crossesAntimeridian && decoded.contains(latitude: -18, longitude: 179.9)
                && decoded.contains(latitude: -18, longitude: -175))
        #expect(!decoded.contains(latitude: -18, longitude: 0))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ExploreRegion.self, from: Data(#"{"south": 5, "west": 0, "north": -5, "east": 1}"#.utf8))
        }
        let query = ExploreMerchantQuery.inRegion(decoded)
        #expect(try JSONDecoder().decode(ExploreMerchantQuery.self, from: JSONEncoder().encode(query)) == query)
    }
}
