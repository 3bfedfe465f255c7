import EngageCore
import Foundation
import GRDB

extension ExploreDirectory {
    /// A merchant that matched: the row shown (closest, or first listed), its distance and how many of
    /// the merchant's rows matched.
    struct Match: Sendable, Hashable {
        var key: Int32
        var row: Int32
        var distance: Double
        var count: Int
    }

    /// One page of the merchants matching `query`: one entry per merchant, shown at its closest
    /// matching location when the query has a centre.
    ///
    /// A query with a centre and a radius is exact: candidates come from the R*Tree's bounding boxes
    /// (two across the antimeridian, every longitude near a pole), each is kept when its haversine
    /// distance is `<=` the radius, and each merchant is shown at its closest kept location.
    ///
    /// - Parameter hidesPiggyCardsOnly: Leave out merchants whose gift cards come from PiggyCards alone
    ///   (builds without the trait, or users in a restricted country).
    /// - Throws: `.invalidInput` for a distance sort without a centre.
    public func merchants(_ query: ExploreMerchantQuery, hidesPiggyCardsOnly: Bool = ExploreDirectory.defaultHidesPiggyCardsOnly) throws -> Page<ExploreMerchant> {
        let matches = try matchingMerchants(query, hidesPiggyCardsOnly: hidesPiggyCardsOnly)
        let page = Self.pageSlice(matches, page: query.page)
        return Page(items: try details(of: page, center: query.center), offset: query.page.offset, totalCount: matches.count)
    }

    /// PiggyCards-only merchants are hidden in builds without the `PiggyCards` trait.
    public static var defaultHidesPiggyCardsOnly: Bool {
        #if PiggyCards
            false
        #else
            true
        #endif
    }

    /// Every matching merchant, sorted by the query's order (the unpaged result).
    func matchingMerchants(_ query: ExploreMerchantQuery, hidesPiggyCardsOnly: Bool) throws -> [Match] {
        if query.sort == .distance && query.center == nil {
            throw EngageError(.invalidInput, "Sorting by distance needs a centre.", providerID: .explore)
        }
        let filter = ExploreRowFilter(query: query, hidesPiggyCardsOnly: hidesPiggyCardsOnly, territoryCodes: columns.territoryCodes)
        var keys: Set<Int32>?
        if ExploreTextSearch.isSearch(query.text) {
            guard let expression = ExploreTextSearch.matchExpression(query.text) else { return [] }
            keys = try textMatches(expression)
            if keys?.isEmpty == true { return [] }
        }
        var matches = try collect(query: query, filter: filter, keys: keys)
        sort(&matches, by: query.sort)
        return matches
    }

    /// Merchant keys whose names match an FTS5 expression.
    func textMatches(_ expression: String) throws -> Set<Int32> {
        try database.read { db in
            var keys = Set<Int32>()
            let cursor = try Int32.fetchCursor(db, sql: "SELECT rowid FROM merchant_fts WHERE merchant_fts MATCH ?", arguments: [expression])
            while let key = try cursor.next() { keys.insert(key) }
            return keys
        }
    }

    private func collect(query: ExploreMerchantQuery, filter: ExploreRowFilter, keys: Set<Int32>?) throws -> [Match] {
        var matches: [Match] = []
        var positions: [Int32: Int] = [:]
        let center = query.center
        let radius = query.radius?.meters
        let columns = self.columns

        func consider(_ row: Int) {
            guard filter.matches(flags: columns.flags[row], territory: columns.territory[row]) else { return }
            let key = columns.rowKey[row]
            if let keys, !keys.contains(key) { return }
            var distance = Double.infinity
            if let center {
                distance = columns.distance(ofRow: row, from: center)
                if let radius, !(distance <= radius) { return }
            }
            if let position = positions[key] {
                var match = matches[position]
                match.count += 1
                if distance < match.distance
                    || (distance == match.distance && columns.directoryRowID[row] < columns.directoryRowID[Int(match.row)]) {
                    match.distance = distance
                    match.row = Int32(row)
                }
                matches[position] = match
            } else {
                positions[key] = matches.count
                matches.append(Match(key: key, row: Int32(row), distance: distance, count: 1))
            }
        }

        if let center, let radius {
            try database.read { db in
                let statement = try db.cachedStatement(
                    sql: "SELECT id FROM location_rtree WHERE maxLat >= ? AND minLat <= ? AND maxLon >= ? AND minLon <= ?"
                )
                for box in ExploreGeo.boundingBoxes(around: center, radiusMeters: radius) {
                    let cursor = try Int.fetchCursor(
                        statement, arguments: [box.minLatitude, box.maxLatitude, box.minLongitude, box.maxLongitude]
                    )
                    while let id = try cursor.next() { consider(id - 1) }
                }
            }
        } else if let keys {
            for key in keys.sorted() {
                let first = Int(columns.merchantFirstRow[Int(key) - 1]) - 1
                for row in first..<(first + Int(columns.merchantRowCount[Int(key) - 1])) { consider(row) }
            }
        } else {
            for row in 0..<columns.rowCount { consider(row) }
        }
        return matches
    }

    private func sort(_ matches: inout [Match], by order: ExploreMerchantSort) {
        let columns = self.columns
        switch order {
        case .name:
            matches.sort { columns.merchantNameRank[Int($0.key) - 1] < columns.merchantNameRank[Int($1.key) - 1] }
        case .distance:
            matches.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.key < $1.key }
        case .discount:
            matches.sort { lhs, rhs in
                let left = columns.merchantDiscount[Int(lhs.key) - 1]
                let right = columns.merchantDiscount[Int(rhs.key) - 1]
                return left != right ? left > right : lhs.key < rhs.key
            }
        }
    }

    static func pageSlice<Item>(_ items: [Item], page: PageRequest) -> ArraySlice<Item> {
        let start = min(page.offset, items.count)
        let end = min(start + page.limit, items.count)
        return items[start..<end]
    }
}
