@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageExploreCTX
@_spi(EngageProvider) @testable import EngageExploreGiftCards
@_spi(EngageProvider) @testable import EngageTesting
import ExploreEmulator
import Foundation
import GRDB
import EngageTestTraits
import Testing

@Suite("Explore directory: schemas, filters, text search, index lifecycle", .serialized, .bounded)
struct ExploreDirectoryTests {
    @Test(
        "each schema family is detected from the file itself and answers like the brute-force scan",
        arguments: ExploreDirectoryGenerator.SchemaFamily.allCases)
    func schemaFamilies(family: ExploreDirectoryGenerator.SchemaFamily) throws {
        let (fixture, brute) = try ExploreFixture.shared(rows: 4_000, schema: family)
        // The generator's families and the reader's versions are separate enums: the names must agree.
        #expect(fixture.directory.schema.version.rawValue == family.rawValue)
        let query = ExploreMerchantQuery.nearby(try ExploreDirectoryGenerator.denseCenter(), radius: .miles(20))
        #expect(try fixture.directory.allPages(query).asResults == brute.nearby(query))
        var giftCards = ExploreMerchantQuery(paymentMethods: [.giftCard], giftCardProviders: [.ctx])
        giftCards.page = PageRequest(limit: 1_000)
        #expect(Set(try fixture.directory.allPages(giftCards).map(\.merchantID)) == brute.matchingMerchants(giftCards))
    }

    @Test("filters without a centre select the same merchants as the brute-force scan")
    func filtersWithoutCentre() throws {
        let (fixture, brute) = try ExploreFixture.shared()
        let queries: [ExploreMerchantQuery] = [
            ExploreMerchantQuery(),
            ExploreMerchantQuery(tab: .online),
            ExploreMerchantQuery(tab: .nearby, paymentMethods: [.dash]),
            ExploreMerchantQuery(paymentMethods: [.giftCard], giftCardProviders: [.ctx]),
            ExploreMerchantQuery(territory: "île-DE-france"),
            ExploreMerchantQuery(territory: "Atlantis"),
        ]
        for query in queries {
            #expect(Set(try fixture.directory.allPages(query).map(\.merchantID)) == brute.matchingMerchants(query), "\(query)")
        }
    }

    @Test("PiggyCards-only merchants are hidden when asked (trait off, restricted country) and shown otherwise")
    func piggyCardsOnlyVisibility() throws {
        let (fixture, brute) = try ExploreFixture.shared()
        #expect(!brute.piggyOnly.isEmpty)
        let hidden = Set(try fixture.directory.allPages(ExploreMerchantQuery(), hidesPiggyCardsOnly: true).map(\.merchantID))
        let shown = Set(try fixture.directory.allPages(ExploreMerchantQuery(), hidesPiggyCardsOnly: false).map(\.merchantID))
        #expect(hidden.isDisjoint(with: brute.piggyOnly))
        #expect(shown.isSuperset(of: brute.piggyOnly.intersection(Set(brute.rows.map(\.merchantID)))))
        #expect(shown.subtracting(hidden) == brute.piggyOnly.intersection(shown))
    }

    @Test("hostile pages (negative limit, offset near Int.max, huge limit) answer without trapping")
    func hostilePages() throws {
        let (fixture, _) = try ExploreFixture.shared()
        var query = ExploreMerchantQuery()
        query.page.limit = -1
        #expect(try fixture.directory.merchants(query).items.count == 1)
        query.page.offset = 5
        query.page.limit = .max
        #expect(try fixture.directory.merchants(query).items.count == PageRequest.maxLimit)
        query.page.offset = .max
        #expect(try fixture.directory.merchants(query).items.isEmpty)
        var atms = ExploreATMQuery()
        atms.page.offset = .max - 1
        atms.page.limit = .max
        #expect(try fixture.directory.atms(atms).items.isEmpty)
    }

    @Test("hostile variations of Explore's public Codable values decode or fail cleanly, never trap")
    func hostileVariations() throws {
        var query = ExploreMerchantQuery(text: "cafe", center: try GeoPoint(latitude: 40.7, longitude: -74), radius: .miles(5))
        query.page = PageRequest(offset: 3, limit: 7)
        let documents: [(Data, (Data) throws -> Void)] = [
            (try JSONEncoder().encode(query), { _ = try JSONDecoder().decode(ExploreMerchantQuery.self, from: $0) }),
            (try JSONEncoder().encode(ExploreATMQuery()), { _ = try JSONDecoder().decode(ExploreATMQuery.self, from: $0) }),
            (try JSONEncoder().encode(GiftCardPolling()), { _ = try JSONDecoder().decode(GiftCardPolling.self, from: $0) }),
            (try JSONEncoder().encode(ExploreConfiguration()), { _ = try JSONDecoder().decode(ExploreConfiguration.self, from: $0) }),
        ]
        for (index, (document, decode)) in documents.enumerated() {
            try decode(document)
            for variation in HostileJSON.variations(of: document, count: 300, seed: UInt64(50 + index)) {
                do { try decode(variation) } catch { #expect(error is DecodingError || error is EngageError, "\(type(of: error))") }
            }
        }
    }

    @Test("a radius stays finite and non-negative however it is set or decoded")
    func radiusRanges() throws {
        var radius = ExploreRadius.miles(5)
        radius.meters = -10
        #expect(radius.meters == 0)
        radius.meters = .nan
        #expect(radius.meters == 0)
        #expect(ExploreRadius(meters: .infinity).meters == 0)
        #expect(try JSONDecoder().decode(ExploreRadius.self, from: Data(#"{"meters":1500}"#.utf8)).meters == 1_500)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ExploreRadius.self, from: Data(#"{"meters":-1}"#.utf8)) }
    }

    @Test("sorts: name ignores case and diacritics, discount is largest first, ties by directory order")
    func sorts() throws {
        let (fixture, _) = try ExploreFixture.shared()
        let byName = try fixture.directory.allPages(ExploreMerchantQuery(sort: .name))
        let keys = byName.map { $0.name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil) }
        #expect(keys == keys.sorted())
        let byDiscount = try fixture.directory.allPages(ExploreMerchantQuery(sort: .discount))
        #expect(byDiscount.map(\.discountBasisPoints) == byDiscount.map(\.discountBasisPoints).sorted(by: >))
        #expect(throws: EngageError.self) { try fixture.directory.merchants(ExploreMerchantQuery(sort: .distance)) }
    }

    @Test("text search is a prefix search over names, diacritics folded, and any input is safe")
    func textSearch() throws {
        let (fixture, _) = try ExploreFixture.shared()
        let chain = try fixture.directory.merchants(ExploreMerchantQuery(text: "home dep"))
        #expect(chain.items.contains { $0.name == "Home Depot" })
        let accented = try fixture.directory.merchants(ExploreMerchantQuery(text: "cafe"))
        #expect(accented.items.contains { $0.name.hasPrefix("Café") })
        let greek = try fixture.directory.merchants(ExploreMerchantQuery(text: "φουρν"))
        #expect(greek.items.allSatisfy { $0.name.lowercased().contains("φούρνος") })
        for hostile in [
            "\"", "*", "OR", "NEAR(a b)", "a\"b", "'; DROP TABLE merchant; --", "🙂", "  ", "^", "name:x", "\0",
            String(repeating: "x", count: 10_000),
        ] {
            #expect(throws: Never.self) { try fixture.directory.merchants(ExploreMerchantQuery(text: hostile)) }
        }
        #expect(try fixture.directory.merchants(ExploreMerchantQuery(text: "!!!")).items.isEmpty)
    }

    @Test("url rows, inactive rows and stray values follow the directory rules")
    func strayValues() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("explore-stray-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("explore.db").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE merchant(id INTEGER PRIMARY KEY, merchantId TEXT, name TEXT, active INTEGER, paymentMethod TEXT, type TEXT,
                        redeemType TEXT, denominationsType TEXT, savingsPercentage INTEGER, latitude REAL, longitude REAL, territory TEXT);
                    CREATE TABLE gift_card_providers(id INTEGER PRIMARY KEY, merchantId TEXT, provider TEXT, redeemType TEXT,
                        savingsPercentage INTEGER, active INTEGER, denominationsType TEXT, sourceId TEXT);
                    INSERT INTO merchant VALUES (1, 'a', 'Alpha', 1, 'dash ', 'physical', 'barcode', NULL, 100, 40.7, -74.0, 'NY');
                    INSERT INTO merchant VALUES (2, 'b', 'Beta', 1, 'gift card', 'both', 'url', 'fixed', 0, 40.7, -74.0, 'NY');
                    INSERT INTO merchant VALUES (3, 'c', 'Gamma', 0, 'dash', 'physical', 'barcode', NULL, 0, 40.7, -74.0, 'NY');
                    INSERT INTO merchant VALUES (4, 'd', 'Delta', NULL, 'Gift Card', NULL, NULL, 'Fixed', NULL, 0, 0, NULL);
                    INSERT INTO merchant VALUES (5, NULL, 'Epsilon', 1, NULL, 'PHYSICAL ', NULL, NULL, NULL, '40.71', '-74.01', ' ny');
                    INSERT INTO gift_card_providers VALUES (1, 'd', 'CTX', 'barcode', 1500, 1, 'min-max', 'ctx-1');
                    INSERT INTO gift_card_providers VALUES (2, 'd', 'PiggyCards', 'barcode', 2000, 0, 'fixed', 'p-1');
                    """)
        }
        try queue.close()
        let directory = try ExploreDirectory.open(path: path)
        defer { try? directory.close() }
        let all = try directory.merchants(ExploreMerchantQuery(page: PageRequest(limit: 100)))
        #expect(Set(all.items.map(\.name)) == ["Alpha", "Delta", "Epsilon"])  // url and inactive rows left out
        #expect(try directory.merchants(ExploreMerchantQuery(paymentMethods: [.dash])).items.map(\.name) == ["Alpha"])
        let delta = try #require(try directory.merchant(id: "d"))
        #expect(delta.type == .online)  // (0, 0) is no location
        #expect(delta.location.latitude == nil)
        #expect(delta.discountBasisPoints == 1500)  // the inactive PiggyCards offer does not count
        #expect(delta.giftCardOffers.map(\.provider) == [.ctx])
        #expect(try directory.merchants(ExploreMerchantQuery(denominationsTypes: [.fixed])).items.map(\.name) == ["Delta"])
        let epsilon = try #require(try directory.merchants(ExploreMerchantQuery(text: "epsilon")).items.first)
        #expect(epsilon.merchantID == "row-5")
        #expect(epsilon.type == .physical)
        #expect(try directory.merchants(ExploreMerchantQuery(territory: "NY")).totalCount == 2)
        #expect(try directory.territories() == ["NY"])
    }

    @Test("the index is built once per version and rebuilt when the file changes")
    func indexLifecycle() throws {
        let fixture = try ExploreFixture(rows: 1_000)
        defer { fixture.remove() }
        let indexPath = fixture.directory.indexPath
        let built = try FileManager.default.attributesOfItem(atPath: indexPath)[.modificationDate] as? Date
        let reopened = try ExploreDirectory.open(path: fixture.path)
        #expect(try FileManager.default.attributesOfItem(atPath: indexPath)[.modificationDate] as? Date == built)
        try reopened.close()
        let other = try ExploreDirectory.open(path: fixture.path, fingerprint: "sha256:another-version")
        #expect(other.fingerprint == "sha256:another-version")
        #expect(other.counts.merchants == fixture.directory.counts.merchants)
        try other.close()
        // The downloaded file itself is never written to.
        let queue = try DatabaseQueue(path: fixture.path)
        #expect(try queue.read { db in try db.tableExists("location_rtree") } == false)
        try queue.close()
    }

    @Test("a missing file, a file that is not SQLite and a database without a merchant table are clear errors")
    func badFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("explore-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("missing.db").path
        #expect { try ExploreDirectory.open(path: missing) } throws: { ($0 as? EngageError)?.code == .exploreDirectoryMissing }
        let garbage = folder.appendingPathComponent("garbage.db").path
        try Data(repeating: 0x41, count: 4_096).write(to: URL(fileURLWithPath: garbage))
        #expect { try ExploreDirectory.open(path: garbage) } throws: { ($0 as? EngageError)?.code == .storage }
        let empty = folder.appendingPathComponent("empty.db").path
        let queue = try DatabaseQueue(path: empty)
        try queue.write { db in try db.execute(sql: "CREATE TABLE shop(name TEXT)") }
        try queue.close()
        #expect { try ExploreDirectory.open(path: empty) } throws: { error in
            let error = error as? EngageError
            return error?.code == .storage && error?.message.contains("merchant") == true
        }
    }
}
