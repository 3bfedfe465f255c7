@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExplore
import ExploreEmulator
import Foundation
import GRDB

/// The Explore directory benchmarks' fixture: a generated directory of `rows` locations (kept between
/// runs under the temporary directory, keyed by its options, since writing 1 000 000 rows takes a
/// while), opened with its index, and the reference apps' nearby method on the same file.
public final class ExploreScenario: Sendable {
    /// One nearby answer, comparable between the index and the reference method.
    public struct Answer: Sendable, Equatable {
        public var merchantID: String
        public var rowID: Int64
        public var distance: Double
    }

    public let path: String
    public let directory: ExploreDirectory
    public let reference: DatabaseQueue
    public let center: GeoPoint
    public let radius: ExploreRadius

    /// Generates (or reuses) the directory and opens it. `rows` is 1 000 000 for the goal.
    public init(rows: Int = 1_000_000, radius: ExploreRadius = ExploreRadius(meters: 32_186.88)) throws {  // 20 miles
        path = try Self.directoryFile(rows: rows)
        directory = try ExploreDirectory.open(path: path)
        var configuration = Configuration()
        configuration.readonly = true
        reference = try DatabaseQueue(path: path, configuration: configuration)
        center = try ExploreDirectoryGenerator.denseCenter()
        self.radius = radius
    }

    /// The query both methods answer: nearby tab, within the radius, first page of 100 by distance.
    /// The generated benchmark directory of `rows` rows (seed 42, v4), made once and cached in the
    /// temporary folder.
    public static func directoryFile(rows: Int) throws -> String {
        let folder = NSTemporaryDirectory().appending("engage-bench-explore")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/explore-\(rows)-seed42-v4.db"
        if !FileManager.default.fileExists(atPath: path) {
            let partial = path + ".partial"
            try ExploreDirectoryGenerator(options: .init(seed: 42, rows: rows, schema: .v4)).write(to: partial)
            try FileManager.default.moveItem(atPath: partial, toPath: path)
        }
        return path
    }

    public var query: ExploreMerchantQuery { .nearby(center, radius: radius, page: PageRequest(limit: 100)) }

    /// The index: R*Tree candidates, exact distance, closest per merchant, sorted, first page.
    public func indexed() throws -> [Answer] {
        try directory.merchants(query, hidesPiggyCardsOnly: false).items.map {
            Answer(merchantID: $0.merchantID, rowID: $0.location.id, distance: $0.distanceMeters ?? .infinity)
        }
    }

    /// The number of merchants within the radius (the page's total).
    public func indexedTotal() throws -> Int {
        try directory.merchants(query, hidesPiggyCardsOnly: false).totalCount ?? 0
    }

    /// Text search: the first page of merchants whose names start with `text`.
    public func search(_ text: String) throws -> Int {
        try directory.merchants(ExploreMerchantQuery(text: text, page: PageRequest(limit: 100)), hidesPiggyCardsOnly: false).items.count
    }

    /// The reference apps' method on the downloaded file: a latitude/longitude box in SQL over the
    /// file's own indexes, then in Swift the exact distance filter, the directory rules and the
    /// closest location per merchant, sorted by distance (ties by first listed row), first page.
    public func referenceMethod() throws -> [Answer] {
        let boxes = ReferenceGeometry.boundingBoxes(around: center, radiusMeters: radius.meters)
        var best: [String: Answer] = [:]
        var firstRow: [String: Int64] = [:]
        try reference.read { db in
            for box in boxes {
                let rows = try Row.fetchCursor(
                    db,
                    sql: """
                        SELECT * FROM merchant
                        WHERE latitude BETWEEN ? AND ? AND longitude BETWEEN ? AND ?
                        """,
                    arguments: [box.minLatitude, box.maxLatitude, box.minLongitude, box.maxLongitude]
                )
                while let row = try rows.next() {
                    let rowID: Int64 = row["id"]
                    if (row["active"] as Int64?) == 0 { continue }
                    if Self.fold(row["redeemType"]) == "url" { continue }
                    let type = Self.fold(row["type"])
                    if type == "online" { continue }
                    guard let latitude = row["latitude"] as Double?, let longitude = row["longitude"] as Double?,
                        !(latitude == 0 && longitude == 0)
                    else { continue }
                    let raw = ((row["merchantId"] as String?) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
                    let merchantID = raw.isEmpty ? "row-\(rowID)" : raw
                    let distance = ReferenceGeometry.distance(
                        latitude: center.latitude, longitude: center.longitude, latitude: latitude, longitude: longitude)
                    guard distance <= radius.meters else { continue }
                    if let current = best[merchantID], (current.distance, current.rowID) <= (distance, rowID) { continue }
                    best[merchantID] = Answer(merchantID: merchantID, rowID: rowID, distance: distance)
                }
            }
        }
        // Ties in distance fall back to the merchant's first listed row, as in the index; they are rare
        // (distinct coordinates), so the first rows are looked up only for tied merchants.
        let answers = best.values.sorted { ($0.distance, $0.rowID) < ($1.distance, $1.rowID) }
        var tied = Set<String>()
        for (left, right) in zip(answers, answers.dropFirst()) where left.distance == right.distance {
            tied.insert(left.merchantID)
            tied.insert(right.merchantID)
        }
        if !tied.isEmpty {
            try reference.read { db in
                for merchantID in tied {
                    firstRow[merchantID] = try Int64.fetchOne(
                        db,
                        sql: """
                            SELECT MIN(id) FROM merchant WHERE merchantId = ? AND coalesce(active, 1) != 0
                              AND lower(trim(coalesce(redeemType, ''))) != 'url'
                            """,
                        arguments: [merchantID]
                    )
                }
            }
        }
        return
            answers
            .sorted { lhs, rhs in
                lhs.distance != rhs.distance
                    ? lhs.distance < rhs.distance : firstRow[lhs.merchantID, default: 0] < firstRow[rhs.merchantID, default: 0]
            }
            .prefix(100)
            .map { $0 }
    }

    static func fold(_ value: String?) -> String {
        (value ?? "").lowercased().filter { $0.isLetter || $0.isNumber }
    }
}
