@_spi(EngageProvider) import EngageCore
import Foundation
import GRDB

/// The schema family of a directory file, read from the file's own tables and columns (never from a
/// version number stored in the file, which may be missing or wrong).
///
/// | version | recognised by |
/// |---|---|
/// | v1 | `merchant.merchantId` declared `INTEGER`, no `redeemType` column |
/// | v2 | text ids, `redeemType` and `savingsPercentage` columns |
/// | v4 | `denominationsType` column and a `gift_card_providers` table |
///
/// Anything in between (say, a v2 file with a `gift_card_providers` table) is read by what it has:
/// every optional column is looked up on its own.
package struct ExploreSchema: Sendable, Hashable, CustomStringConvertible {
    /// The schema family.
    public enum Version: String, Sendable, Codable, Comparable, CaseIterable {
        case v1, v2, v4

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The detected family.
    public var version: Version
    /// The `merchant` table's columns (lower-cased).
    public var merchantColumns: Set<String>
    /// The `atm` table's columns (lower-cased), empty without the table.
    public var atmColumns: Set<String>
    /// The `gift_card_providers` table's columns (lower-cased), empty without the table.
    public var providerColumns: Set<String>

    /// Whether the `merchant` table has `column` (case-insensitive).
    public func merchantHas(_ column: String) -> Bool { merchantColumns.contains(column.lowercased()) }
    /// Whether the file has an `atm` table with coordinates.
    public var hasATMs: Bool { atmColumns.contains("latitude") && atmColumns.contains("longitude") }
    /// Whether the file has a usable `gift_card_providers` table.
    public var hasGiftCardProviders: Bool { providerColumns.contains("merchantid") && providerColumns.contains("provider") }

    public var description: String { "explore schema \(version.rawValue)" }

    /// The columns the `merchant` table must have to be read at all.
    static let requiredMerchantColumns = ["name", "latitude", "longitude"]

    /// Reads the schema of the database `db`.
    ///
    /// - Throws: `EngageError(.storage)` when the file has no `merchant` table or misses a required
    ///   column, naming what is missing.
    public static func detect(in db: Database, schemaName: String = "main") throws -> ExploreSchema {
        let merchant = try columns(of: "merchant", in: db, schemaName: schemaName)
        guard !merchant.isEmpty else {
            throw EngageError(.storage, "The file is not an explore directory: it has no merchant table.", providerID: .explore)
        }
        let missing = requiredMerchantColumns.filter { !merchant.keys.contains($0.lowercased()) }
        guard missing.isEmpty else {
            throw EngageError(
                .storage, "The directory's merchant table lacks \(missing.joined(separator: ", ")).", providerID: .explore
            )
        }
        let atm = try columns(of: "atm", in: db, schemaName: schemaName)
        let providers = try columns(of: "gift_card_providers", in: db, schemaName: schemaName)
        let merchantIDType = merchant["merchantid"]?.uppercased() ?? ""
        let version: Version
        if merchant.keys.contains("denominationstype") && !providers.isEmpty {
            version = .v4
        } else if merchant.keys.contains("redeemtype") || !merchantIDType.contains("INT") {
            version = .v2
        } else {
            version = .v1
        }
        return ExploreSchema(
            version: version, merchantColumns: Set(merchant.keys), atmColumns: Set(atm.keys), providerColumns: Set(providers.keys)
        )
    }

    /// Column name (lower-cased) to declared type, empty when the table does not exist.
    private static func columns(of table: String, in db: Database, schemaName: String) throws -> [String: String] {
        let rows = try Row.fetchAll(db, sql: "SELECT name, type FROM pragma_table_info(?, ?)", arguments: [table, schemaName])
        var columns: [String: String] = [:]
        for row in rows {
            let name: String = try row.decode(forColumn: "name")
            columns[name.lowercased()] = try row.decode(String?.self, forColumn: "type") ?? ""
        }
        return columns
    }
}
