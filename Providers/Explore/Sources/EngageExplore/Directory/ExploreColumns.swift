@_spi(EngageProvider) import EngageCore
import Foundation
import GRDB

/// The index's rows and merchants held in memory as flat arrays, so a query tests and measures each
/// candidate with array reads instead of SQLite lookups. About 32 bytes a row: 3 MB for a directory of
/// 100 000 rows, 32 MB for the 1 000 000-row benchmark.
///
/// Row `id` (1-based) is index `id - 1`; merchant `key` is index `key - 1`. Rows are stored tile by tile
/// (see ``ExploreTile``): tile `id` (the R*Tree's id) covers rows `tileFirstRow[id - 1]` onwards, so its
/// candidates are one contiguous range. A merchant's rows are listed, in directory row order, in
/// ``merchantRows`` from ``merchantRowStart``.
struct ExploreColumns: Sendable {
    var latitude: [Double] = []
    var longitude: [Double] = []
    var rowKey: [Int32] = []
    var flags: [UInt16] = []
    var territory: [Int32] = []
    var directoryRowID: [Int64] = []

    var merchantNameRank: [Int32] = []
    var merchantDiscount: [Int32] = []
    /// Row indices of every merchant, merchant by merchant (merchant `k`'s start at `merchantRowStart[k - 1]`
    /// and end where the next merchant's start).
    var merchantRows: [Int32] = []
    var merchantRowStart: [Int32] = []
    /// First row index and row count of each tile.
    var tileFirstRow: [Int32] = []
    var tileRowCount: [Int32] = []
    /// Territory code by folded name.
    var territoryCodes: [String: Int32] = [:]
    /// Merchant key by merchant id.
    var merchantKeys: [String: Int32] = [:]

    var rowCount: Int { rowKey.count }

    /// The row indices of the merchant with key `key`, in directory row order.
    func rows(ofMerchant key: Int32) -> ArraySlice<Int32> {
        let index = Int(key) - 1
        return merchantRows[Int(merchantRowStart[index])..<Int(merchantRowStart[index + 1])]
    }

    /// The row indices of the tile with R*Tree id `id`.
    func rows(ofTile id: Int) -> Range<Int> {
        let first = Int(tileFirstRow[id - 1])
        return first..<(first + Int(tileRowCount[id - 1]))
    }

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
            columns.latitude.append(row.readableValue(atIndex: 0, as: Double.self) ?? .nan)
            columns.longitude.append(row.readableValue(atIndex: 1, as: Double.self) ?? .nan)
            columns.rowKey.append(try row.decode(atIndex: 2))
            columns.flags.append(try row.decode(atIndex: 3))
            columns.territory.append(try row.decode(atIndex: 4))
            columns.directoryRowID.append(try row.decode(atIndex: 5))
        }
        let merchantCursor = try Row.fetchCursor(
            db, sql: "SELECT merchantId, nameRank, discount FROM merchants ORDER BY key"
        )
        var key: Int32 = 0
        while let row = try merchantCursor.next() {
            key += 1
            columns.merchantKeys[try row.decode(String.self, atIndex: 0)] = key
            columns.merchantNameRank.append(try row.decode(atIndex: 1))
            columns.merchantDiscount.append(Int32(clamping: try row.decode(Int64.self, atIndex: 2)))
        }
        let tileCursor = try Row.fetchCursor(db, sql: "SELECT firstRow, rowCount FROM tiles ORDER BY id")
        while let row = try tileCursor.next() {
            columns.tileFirstRow.append(Int32(clamping: try row.decode(Int64.self, atIndex: 0) - 1))
            columns.tileRowCount.append(try row.decode(atIndex: 1))
        }
        columns.indexMerchantRows()
        for row in try Row.fetchAll(db, sql: "SELECT code, name FROM territories") {
            columns.territoryCodes[ExploreNameOrder.key(try row.decode(String.self, atIndex: 1))] = try row.decode(atIndex: 0)
        }
        return columns
    }

    /// Lists each merchant's rows (a counting sort by key), in directory row order.
    private mutating func indexMerchantRows() {
        var start = [Int32](repeating: 0, count: merchantCount + 1)
        for key in rowKey { start[Int(key)] += 1 }
        for index in 0..<merchantCount { start[index + 1] += start[index] }
        var next = start
        var list = [Int32](repeating: 0, count: rowCount)
        for row in 0..<rowCount {
            let slot = Int(rowKey[row]) - 1
            list[Int(next[slot])] = Int32(row)
            next[slot] += 1
        }
        for index in 0..<merchantCount where start[index + 1] - start[index] > 1 {
            list[Int(start[index])..<Int(start[index + 1])].sort { directoryRowID[Int($0)] < directoryRowID[Int($1)] }
        }
        merchantRows = list
        merchantRowStart = start
    }
}
