@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageExploreCTX
@_spi(EngageProvider) @testable import EngageExploreGiftCards
import ExploreEmulator
import Foundation
import EngageTestTraits
import Testing

@Suite("Explore nearby search is exact (against a brute-force scan)", .serialized, .bounded)
struct ExploreNearbyTests {
    @Test("random centres and radii: the R*Tree search equals the brute-force scan, row for row")
    func randomQueries() throws {
        let (fixture, brute) = try ExploreFixture.shared()
        var seed: UInt64 = 99
        func next() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) * 0x1.0p-53
        }
        let centres: [(Double, Double)] = [(40.7128, -74.0060), (37.9838, 23.7275), (-33.8688, 151.2093), (51.5074, -0.1278)]
        var nonEmpty = 0
        for index in 0..<24 {
            let base = centres[index % centres.count]
            let center = try GeoPoint(latitude: base.0 + (next() - 0.5) * 0.6, longitude: base.1 + (next() - 0.5) * 0.6)
            let radius = ExploreRadius(
                meters: [1_609.344, 8_046.72, ExploreGeo.twentyMilesMeters, 80_467.2, 1_000][index % 5] * (0.5 + next()))
            let query = ExploreMerchantQuery.nearby(center, radius: radius)
            let expected = brute.nearby(query)
            let actual = try fixture.directory.allPages(query).asResults
            #expect(actual == expected, "centre \(center), radius \(radius)")
            if !expected.isEmpty { nonEmpty += 1 }
        }
        #expect(nonEmpty >= 12)
    }

    @Test("a location exactly on the radius is included; a hair inside the radius excludes it")
    func edgeOfRadius() throws {
        let (fixture, brute) = try ExploreFixture.shared()
        let center = try GeoPoint(latitude: 40.70, longitude: -74.02)
        let wide = brute.nearby(.nearby(center, radius: .kilometers(30)))
        // The farthest merchant of the wide search, whose closest location is exactly at distance d.
        let target = try #require(wide.last)
        let distance = try #require(target.distance)
        let exact = try fixture.directory.allPages(.nearby(center, radius: ExploreRadius(meters: distance))).asResults
        #expect(exact.contains { $0.merchantID == target.merchantID && $0.distance == distance })
        #expect(exact == brute.nearby(.nearby(center, radius: ExploreRadius(meters: distance))))
        let inside = try fixture.directory.allPages(.nearby(center, radius: ExploreRadius(meters: distance.nextDown))).asResults
        #expect(!inside.contains { $0.merchantID == target.merchantID && $0.rowID == target.rowID })
        #expect(inside == brute.nearby(.nearby(center, radius: ExploreRadius(meters: distance.nextDown))))
    }

    @Test(
        "across the antimeridian both sides are found", arguments: [(-16.85, 179.97), (-16.85, -179.99), (64.73, 177.5), (-21.14, -175.2)])
    func antimeridian(latitude: Double, longitude: Double) throws {
        let (fixture, brute) = try ExploreFixture.world()
        let query = ExploreMerchantQuery.nearby(try GeoPoint(latitude: latitude, longitude: longitude), radius: .kilometers(600))
        let expected = brute.nearby(query)
        #expect(try fixture.directory.allPages(query).asResults == expected)
        #expect(!expected.isEmpty)
    }

    @Test(
        "around the poles every longitude is searched",
        arguments: [(78.2, 15.6, 400_000.0), (89.9, 0.0, 2_000_000.0), (-77.8, 166.7, 300_000.0), (-89.99, 45.0, 1_500_000.0)])
    func poles(latitude: Double, longitude: Double, radius: Double) throws {
        let (fixture, brute) = try ExploreFixture.world()
        let query = ExploreMerchantQuery.nearby(
            try GeoPoint(latitude: latitude, longitude: longitude), radius: ExploreRadius(meters: radius))
        #expect(try fixture.directory.allPages(query).asResults == brute.nearby(query))
    }

    @Test("a radius of zero finds only a location at the very centre; a huge radius finds every located merchant")
    func extremeRadii() throws {
        let (fixture, brute) = try ExploreFixture.shared()
        let located = try #require(brute.rows.first { $0.latitude != nil && brute.passes($0, .init(tab: .nearby), hidePiggyOnly: true) })
        let center = try GeoPoint(latitude: try #require(located.latitude), longitude: try #require(located.longitude))
        let zero = try fixture.directory.allPages(.nearby(center, radius: ExploreRadius(meters: 0))).asResults
        #expect(zero == brute.nearby(.nearby(center, radius: ExploreRadius(meters: 0))))
        #expect(zero.contains { $0.rowID == located.rowID })
        let world = ExploreMerchantQuery.nearby(center, radius: .kilometers(30_000))
        #expect(try fixture.directory.allPages(world).asResults == brute.nearby(world))
    }

    @Test("filters and tabs combine with nearby exactly as the brute-force scan")
    func filteredNearby() throws {
        let (fixture, brute) = try ExploreFixture.shared()
        let center = try ExploreDirectoryGenerator.denseCenter()
        var queries: [ExploreMerchantQuery] = []
        for tab in ExploreTab.allCases {
            for methods in [Set<ExplorePaymentMethod>(), [.dash], [.giftCard]] {
                var query = ExploreMerchantQuery.nearby(center, radius: .miles(20))
                query.tab = tab
                query.paymentMethods = methods
                queries.append(query)
            }
        }
        var byProvider = ExploreMerchantQuery.nearby(center, radius: .miles(50))
        byProvider.giftCardProviders = [.ctx]
        queries.append(byProvider)
        var byTerritory = ExploreMerchantQuery.nearby(center, radius: .miles(50))
        byTerritory.territory = " ny "
        queries.append(byTerritory)
        for query in queries {
            #expect(try fixture.directory.allPages(query).asResults == brute.nearby(query), "\(query)")
        }
    }

    @Test("pages of 100 are stable: concatenated pages equal the full list, without repeats")
    func pagingStability() throws {
        let (fixture, _) = try ExploreFixture.shared()
        let center = try ExploreDirectoryGenerator.denseCenter()
        for sort in ExploreMerchantSort.allCases {
            var query = ExploreMerchantQuery.nearby(center, radius: .miles(50))
            query.sort = sort
            let paged = try fixture.directory.allPages(query)
            let whole = try fixture.directory.allPages(query, pageSize: 1_000)
            #expect(paged.map(\.merchantID) == whole.map(\.merchantID))
            #expect(Set(paged.map(\.merchantID)).count == paged.count)
            let first = try fixture.directory.merchants(query, hidesPiggyCardsOnly: true)
            #expect(first.items.count == min(100, paged.count))
            #expect(first.totalCount == paged.count)
        }
    }
}
