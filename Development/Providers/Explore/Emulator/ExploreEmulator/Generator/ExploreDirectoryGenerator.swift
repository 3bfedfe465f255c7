@_spi(EngageProvider) import EngageCore
import Foundation
import GRDB

/// Writes realistic, deterministic directory files: cities with dense clusters (New York the densest),
/// chains with hundreds of locations, local shops, online-only merchants, several gift-card providers
/// per merchant, stray values (`'dash '`, `'Fixed'`, NULLs, inactive and `url` rows) and every schema
/// version. The same options always give the same file.
///
/// ```swift
/// let summary = try ExploreDirectoryGenerator(options: .init(seed: 7, rows: 20_000, schema: .v4)).write(to: path)
/// ```
public struct ExploreDirectoryGenerator: Sendable {
    /// The families of tables and columns the Dash wallet's directory files have had, as the generator
    /// writes them (its own statements in `ExploreGeneratorSchema`, never the client's reader): v1 has
    /// integer merchant ids; v2 adds text ids, `redeemType` and `savingsPercentage`; v4 adds
    /// `denominationsType` and the `gift_card_providers` table.
    package enum SchemaFamily: String, Sendable, CaseIterable, Comparable {
        case v1, v2, v4

        package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// What to generate.
    public struct Options: Sendable, Hashable {
        /// The random seed.
        public var seed: UInt64
        /// The number of `merchant` rows (locations and online merchants).
        public var rows: Int
        /// The schema family to write.
        package var schema: SchemaFamily
        /// The number of ATMs.
        public var atms: Int
        /// The share of rows that are online-only merchants.
        public var onlineShare: Double
        /// Whether to sprinkle stray values, NULLs, inactive and `url` rows.
        package var strayValues: Bool

        /// Options; `atms` defaults to one per 200 rows.
        package init(
            seed: UInt64 = 42, rows: Int = 10_000, schema: SchemaFamily = .v4, atms: Int? = nil, onlineShare: Double = 0.04,
            strayValues: Bool = true
        ) {
            self.seed = seed
            self.rows = max(0, rows)
            self.schema = schema
            self.atms = atms ?? max(0, rows / 200)
            self.onlineShare = min(max(onlineShare, 0), 1)
            self.strayValues = strayValues
        }
    }

    /// What was written.
    public struct Summary: Sendable, Hashable {
        /// Rows written to `merchant`.
        public var rows: Int
        /// Distinct merchant ids.
        public var merchants: Int
        /// Rows written to `gift_card_providers`.
        public var providerRows: Int
        /// Rows written to `atm`.
        public var atms: Int
    }

    /// The densest city's centre (New York), the benchmark's query point.
    public static func denseCenter() throws -> GeoPoint {
        try GeoPoint(latitude: ExploreGeneratorCity.newYork.latitude, longitude: ExploreGeneratorCity.newYork.longitude)
    }

    /// The options.
    public let options: Options

    /// A generator.
    package init(options: Options = Options()) {
        self.options = options
    }

    /// Writes a new directory file at `path` (replacing any file there).
    @discardableResult
    public func write(to path: String) throws -> Summary {
        try? FileManager.default.removeItem(atPath: path)
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        var summary = Summary(rows: 0, merchants: 0, providerRows: 0, atms: 0)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
            try db.inTransaction {
                try ExploreGeneratorSchema.create(options.schema, in: db)
                var writer = ExploreGeneratorWriter(options: options, db: db)
                summary = try writer.writeAll()
                return .commit
            }
            if options.schema >= .v4 {
                // The real files carry an FTS4 index of names; readers must not depend on it.
                try? db.execute(sql: "INSERT INTO merchant_fts(merchant_fts) VALUES('rebuild')")
            }
        }
        return summary
    }
}
