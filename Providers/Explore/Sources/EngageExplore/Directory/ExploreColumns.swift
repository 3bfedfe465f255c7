import EngageCore
import Foundation
import GRDB

/// The index's rows and merchants held in memory as flat arrays, so a query tests and measures each
/// candidate with array reads instead of SQLite lookups. About 32 bytes a row: 3 MB for a directory of
/// 100 000 rows, 32 MB for the 1 000 000-row benchmark.
///
/// Row `id` (1-based, the R*Tree's id) is index `id - 1`; merchant `key` is index `key - 1`. A merchant's
/// rows are one contiguous range, in directory row order.
struct ExploreColumns: Sendable {
    var latitude: [Double] = []
    var longitude: [Double] = []
    var rowKey: [Int32] = []
    var flags: [UInt16] = []
    var territory: [Int32] = []
    var directoryRowID: [Int64] = []

    var merchantNameRank: [Int32] = []
    var merchantDiscount: [Int32] = []
    var merchantFirstRow: [Int32] = []
    var merchantRowCount: [Int32] = []
    /// Territory code by folded name.
    var territoryCodes: [String: Int32] = [:]
    /// Merchant key by merchant id.
    var merchantKeys: [String: Int32] = [:]

    var rowCount: Int { rowKey.count }

    /// The distance of row `row` from `center` in metres, or infinity when the row has no location.
    @inline(__always)
    func distance(ofRow row: Int, from center: GeoPoint) -> Double {
        let rowLatitude = latitude[row]
        guard !rowLatitude.isNaN else { return .infinity }
        return ExploreGeo.distance(latitude: center.latitude, longitude: center.longitude, latitude: rowLatitude, longitude: longitude[row])
    }
    var merchantCount: Int { merchantNameRank.count }

    static func load(from db: Database) throws -> ExploreColumns {
        var columns = ExploreColumns()
        let rows = try Int.fetchOne(db, sql: "SELECT count(*) FROM rows") ?? 0
        columns.latitude.reserveCapacity(rows)
        columns.longitude.reserveCapacity(rows)
        columns.rowKey.reserveCapacity(rows)
        columns.flags.reserveCapacity(rows)
        columns.territory.reserveCapacity(rows)
        columns.directoryRowID.reserveCapacity(rows)
        let rowCursor = try Row.fetchCursor(db, sql: "SELECT latitude, longitude, key, flags, territory, dirRowID FROM rows ORDER BY id")
        while let row = try rowCursor.next() {
            columns.latitude.append(row[0] ?? .nan)
            columns.longitude.append(row[1] ?? .nan)
            columns.rowKey.append(row[2])
            columns.flags.append(row[3])
            columns.territory.append(row[4])
            columns.directoryRowID.append(row[5])
        }
        let merchantCursor = try Row.fetchCursor(
            db, sql: "SELECT merchantId, nameRank, discount, firstRow, rowCount FROM merchants ORDER BY key"
        )
        var key: Int32 = 0
        while let row = try merchantCursor.next() {
            key += 1
            columns.merchantKeys[row[0]] = key
            columns.merchantNameRank.append(row[1])
            columns.merchantDiscount.append(Int32(clamping: row[2] as Int64))
            columns.merchantFirstRow.append(row[3])
            columns.merchantRowCount.append(row[4])
        }
        for row in try Row.fetchAll(db, sql: "SELECT code, name FROM territories") {
            columns.territoryCodes[ExploreNameOrder.key(row[1])] = row[0]
        }
        return columns
    }
}
