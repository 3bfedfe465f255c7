@_spi(EngageProvider) import EngageCore
import Foundation
import GRDB

extension ExploreDirectory {
    /// Every listed location of one merchant, closest first when there is a centre (within `radius`
    /// when one is given), else in directory order.
    public func locations(ofMerchant merchantID: String, center: GeoPoint? = nil, radius: ExploreRadius? = nil) throws -> [ExploreLocation]
    {
        guard let key = columns.merchantKeys[merchantID] else { return [] }
        var rows = columns.rows(ofMerchant: key).map(Int.init)
        if let center {
            let distances = Dictionary(uniqueKeysWithValues: rows.map { ($0, columns.distance(ofRow: $0, from: center)) })
            if let radius { rows.removeAll { !((distances[$0] ?? .infinity) <= radius.meters) } }
            rows.sort {
                (distances[$0] ?? .infinity, columns.directoryRowID[$0]) < (distances[$1] ?? .infinity, columns.directoryRowID[$1])
            }
        }
        guard !rows.isEmpty else { return [] }
        let rowIDs = rows.map { columns.directoryRowID[$0] }
        return try database.read { db in
            var details: [Int64: Row] = [:]
            for chunk in stride(from: 0, to: rowIDs.count, by: 500) {
                let ids = Array(rowIDs[chunk..<min(chunk + 500, rowIDs.count)])
                for row in try Row.fetchAll(
                    db, sql: "SELECT m.rowid, \(detailColumnsSQL) FROM dir.merchant m WHERE m.rowid IN (\(Self.placeholders(ids.count)))",
                    arguments: StatementArguments(ids)
                ) { details[try row.decode(Int64.self, atIndex: 0)] = row }
            }
            return rows.compactMap { index in
                details[columns.directoryRowID[index]].map { location(row: $0, index: index, center: center) }
            }
        }
    }

    /// One merchant with its gift-card offers and best discount, shown at its closest location to
    /// `center` (or its first listed one); `nil` when the directory does not list it.
    public func merchant(
        id merchantID: String, center: GeoPoint? = nil, hidesPiggyCardsOnly: Bool = ExploreDirectory.defaultHidesPiggyCardsOnly
    ) throws -> ExploreMerchant? {
        guard let key = columns.merchantKeys[merchantID] else { return nil }
        let rows = columns.rows(ofMerchant: key).map(Int.init)
        guard let first = rows.first else { return nil }
        if hidesPiggyCardsOnly, columns.flags[first] & ExploreRowFlags.piggyCardsOnly.rawValue != 0 { return nil }
        var best = Match(key: key, row: Int32(first), distance: .infinity, count: rows.count)
        if let center {
            for row in rows {
                let distance = columns.distance(ofRow: row, from: center)
                if distance < best.distance {
                    best.distance = distance
                    best.row = Int32(row)
                }
            }
        }
        return try details(of: [best][...], center: center).first
    }

    /// The territories the directory lists, sorted ignoring case and diacritics.
    public func territories() throws -> [String] {
        try database.read { db in try String.fetchAll(db, sql: "SELECT name FROM territories") }
            .sorted { ExploreNameOrder.key($0) < ExploreNameOrder.key($1) }
    }
}
