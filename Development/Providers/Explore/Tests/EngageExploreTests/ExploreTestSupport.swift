@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageExploreCTX
@_spi(EngageProvider) @testable import EngageExploreGiftCards
import ExploreEmulator
import Foundation
import GRDB
import Testing

/// A generated directory in its own temporary folder.
struct ExploreFixture {
    let folder: URL
    let path: String
    let directory: ExploreDirectory

    init(rows: Int = 6_000, schema: ExploreDirectoryGenerator.SchemaFamily = .v4, seed: UInt64 = 7) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("explore-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("explore.db").path
        try ExploreDirectoryGenerator(options: .init(seed: seed, rows: rows, schema: schema)).write(to: path)
        directory = try ExploreDirectory.open(path: path)
    }

    /// A generated directory shared by every test that only reads it (built once per test run, with
    /// its brute-force reading): generating and indexing in a debug build is the slow part of these
    /// tests, and it runs on the shared concurrency pool.
    static func shared(
        rows: Int = 6_000, schema: ExploreDirectoryGenerator.SchemaFamily = .v4, seed: UInt64 = 7
    ) throws -> (ExploreFixture, BruteForceDirectory) {
        let key = "\(rows)-\(schema.rawValue)-\(seed)"
        return try sharedFixtures.withLock { fixtures in
            if let existing = fixtures[key] { return try existing.get() }
            if fixtures.isEmpty { removeStaleFolders() }
            let made = Result { () throws -> (ExploreFixture, BruteForceDirectory) in
                let fixture = try ExploreFixture(rows: rows, schema: schema, seed: seed)
                return (fixture, try BruteForceDirectory(path: fixture.path))
            }
            fixtures[key] = made
            return try made.get()
        }
    }

    /// The 20 000-row world directory for the sparse far-away cities (antimeridian, poles).
    static func world() throws -> (ExploreFixture, BruteForceDirectory) {
        try shared(rows: 20_000, seed: 11)
    }

    /// Shared fixtures outlive their tests (a static has no teardown), so each run first removes the
    /// folders earlier runs left behind: any `explore-tests-` folder untouched for an hour.
    private static func removeStaleFolders() {
        let temporary = FileManager.default.temporaryDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix("explore-tests-") {
            let folder = temporary.appendingPathComponent(name)
            let modified = (try? FileManager.default.attributesOfItem(atPath: folder.path))?[.modificationDate] as? Date
            if let modified, modified < Date(timeIntervalSinceNow: -3_600) { try? FileManager.default.removeItem(at: folder) }
        }
    }

    private static let sharedFixtures = Locked<[String: Result<(ExploreFixture, BruteForceDirectory), any Error>]>([:])

    func remove() {
        try? directory.close()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// An independent reading of the directory rules, straight from the raw rows, to check the index
/// against: every row scanned, nothing indexed.
struct BruteForceDirectory {
    struct RawRow {
        var rowID: Int64
        var merchantID: String
        var latitude: Double?
        var longitude: Double?
        var payment: String
        var type: String
        var denominations: String
        var territory: String
    }

    struct Result: Equatable, CustomStringConvertible {
        var merchantID: String
        var rowID: Int64
        var distance: Double?
        var count: Int
        var description: String { "\(merchantID)@\(rowID) \(distance.map { String($0) } ?? "-") ×\(count)" }
    }

    var rows: [RawRow] = []
    /// Merchant order: first listed row.
    var order: [String: Int64] = [:]
    var providers: [String: Set<String>] = [:]
    var piggyOnly: Set<String> = []

    static func fold(_ text: String?) -> String {
        (text ?? "").lowercased().filter { $0.isLetter || $0.isNumber }
    }

    init(path: String) throws {
        let queue = try DatabaseQueue(
            path: path,
            configuration: {
                var c = Configuration(); c.readonly = true; return c
            }())
        try queue.read { db in
            let columns = Set(try Row.fetchAll(db, sql: "PRAGMA table_info(merchant)").map { ($0["name"] as String).lowercased() })
            func column(_ name: String) -> String { columns.contains(name.lowercased()) ? name : "NULL" }
            let hasProviders = try db.tableExists("gift_card_providers")
            if hasProviders {
                for row in try Row.fetchAll(db, sql: "SELECT merchantId, provider, active, redeemType FROM gift_card_providers") {
                    if (row[2] as Int64?) == 0 || Self.fold(row[3]) == "url" { continue }
                    let id = (row[0] as String?)?.trimmingCharacters(in: .whitespaces) ?? ""
                    providers[id, default: []].insert(Self.fold(row[1]))
                }
                for (id, names) in providers where names == ["piggycards"] { piggyOnly.insert(id) }
            }
            let sql = """
                SELECT rowid, CAST(merchantId AS TEXT), latitude, longitude, \(column("active")), \(column("paymentMethod")), \(column("type")),
                       \(column("redeemType")), \(column("denominationsType")), \(column("territory"))
                FROM merchant ORDER BY rowid
                """
            for row in try Row.fetchAll(db, sql: sql) {
                if (row[4] as Int64?) == 0 || Self.fold(row[7]) == "url" { continue }
                let rowID: Int64 = row[0]
                let rawID = ((row[1] as String?) ?? "").trimmingCharacters(in: .whitespaces)
                let merchantID = rawID.isEmpty ? "row-\(rowID)" : rawID
                var latitude: Double? = row[2]
                var longitude: Double? = row[3]
                if let lat = latitude, let lon = longitude, lat == 0 && lon == 0 || !(-90...90).contains(lat) || !(-180...180).contains(lon)
                {
                    latitude = nil
                    longitude = nil
                }
                if latitude == nil || longitude == nil { latitude = nil; longitude = nil }
                var type = Self.fold(row[6])
                if !["online", "physical", "both"].contains(type) { type = latitude == nil ? "online" : "physical" }
                if order[merchantID] == nil { order[merchantID] = rowID }
                if !hasProviders, Self.fold(row[5]) == "giftcard" { providers[merchantID, default: []].insert("ctx") }
                rows.append(
                    RawRow(
                        rowID: rowID, merchantID: merchantID, latitude: latitude, longitude: longitude, payment: Self.fold(row[5]),
                        type: type,
                        denominations: Self.fold(row[8]), territory: Self.fold(row[9])
                    ))
            }
        }
    }

    func passes(_ row: RawRow, _ query: ExploreMerchantQuery, hidePiggyOnly: Bool) -> Bool {
        if hidePiggyOnly, piggyOnly.contains(row.merchantID) { return false }
        if !query.paymentMethods.isEmpty, !query.paymentMethods.contains(where: { Self.fold($0.rawValue) == row.payment }) { return false }
        if !query.giftCardProviders.isEmpty {
            let names = providers[row.merchantID] ?? []
            if !query.giftCardProviders.contains(where: { names.contains(Self.fold($0.rawValue)) }) { return false }
        }
        switch query.tab {
        case .online where row.type == "physical": return false
        case .nearby where row.type == "online": return false
        default: break
        }
        if let territory = query.territory, Self.fold(territory) != row.territory { return false }
        return true
    }

    /// Merchants near the query's centre, closest first, as the index must answer.
    func nearby(_ query: ExploreMerchantQuery, hidePiggyOnly: Bool = true) -> [Result] {
        guard let center = query.center, let radius = query.radius?.meters else { return [] }
        var best: [String: Result] = [:]
        for row in rows where passes(row, query, hidePiggyOnly: hidePiggyOnly) {
            guard let latitude = row.latitude, let longitude = row.longitude else { continue }
            let distance = ExploreGeo.distance(
                latitude: center.latitude, longitude: center.longitude, latitude: latitude, longitude: longitude)
            guard distance <= radius else { continue }
            if var current = best[row.merchantID] {
                current.count += 1
                if let known = current.distance, distance < known || (distance == known && row.rowID < current.rowID) {
                    current.distance = distance
                    current.rowID = row.rowID
                }
                best[row.merchantID] = current
            } else {
                best[row.merchantID] = Result(merchantID: row.merchantID, rowID: row.rowID, distance: distance, count: 1)
            }
        }
        return best.values.sorted { lhs, rhs in
            lhs.distance != rhs.distance
                ? (lhs.distance ?? .infinity) < (rhs.distance ?? .infinity)
                : order[lhs.merchantID, default: 0] < order[rhs.merchantID, default: 0]
        }
    }

    /// Merchant ids matching the query's filters (no centre), in any order.
    func matchingMerchants(_ query: ExploreMerchantQuery, hidePiggyOnly: Bool = true) -> Set<String> {
        Set(rows.filter { passes($0, query, hidePiggyOnly: hidePiggyOnly) }.map(\.merchantID))
    }
}

extension ExploreDirectory {
    /// Every page of a query, concatenated.
    func allPages(_ query: ExploreMerchantQuery, hidesPiggyCardsOnly: Bool = true, pageSize: Int = 100) throws -> [ExploreMerchant] {
        var query = query
        var items: [ExploreMerchant] = []
        query.page = PageRequest(offset: 0, limit: pageSize)
        while true {
            let page = try merchants(query, hidesPiggyCardsOnly: hidesPiggyCardsOnly)
            items += page.items
            guard page.hasMore, !page.items.isEmpty else { return items }
            query.page = PageRequest(offset: query.page.offset + pageSize, limit: pageSize)
        }
    }
}

extension Array where Element == ExploreMerchant {
    var asResults: [BruteForceDirectory.Result] {
        map { .init(merchantID: $0.merchantID, rowID: $0.location.id, distance: $0.distanceMeters, count: $0.locationCount) }
    }
}
