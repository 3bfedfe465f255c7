@_spi(EngageProvider) import EngageCore
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
    /// - Parameters:
    ///   - query: The filters, the order and the page.
    ///   - hidesPiggyCardsOnly: Leave out merchants whose gift cards come from PiggyCards alone
    ///     (builds without the trait, or users in a restricted country).
    /// - Throws: `.invalidInput` for a distance sort without a centre.
    public func merchants(
        _ query: ExploreMerchantQuery, hidesPiggyCardsOnly: Bool = ExploreDirectory.defaultHidesPiggyCardsOnly
    ) throws -> Page<ExploreMerchant> {
        let matches = try matchingMerchants(
            query, hidesPiggyCardsOnly: hidesPiggyCardsOnly,
            sortedPrefix: min(query.page.offset, .max - query.page.limit) + query.page.limit)
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

    /// Every matching merchant (the unpaged result), the first `limit` of them in the query's order.
    func matchingMerchants(_ query: ExploreMerchantQuery, hidesPiggyCardsOnly: Bool, sortedPrefix limit: Int = .max) throws -> [Match] {
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
        sort(&matches, by: query.sort, limit: min(matches.count, limit))
        return matches
    }

    /// Merchant keys whose names match an FTS5 expression.
    func textMatches(_ expression: String) throws -> Set<Int32> {
        try database.read { db in
            var keys = Set<Int32>()
            let cursor = try Int32.fetchCursor(
                db, sql: "SELECT rowid FROM merchant_fts WHERE merchant_fts MATCH ?", arguments: [expression])
            while let key = try cursor.next() { keys.insert(key) }
            return keys
        }
    }

    private func collect(query: ExploreMerchantQuery, filter: ExploreRowFilter, keys: Set<Int32>?) throws -> [Match] {
        var matches: [Match] = []
        // Position of each merchant's match in `matches` plus one (0: none yet), by merchant index.
        var positions = [Int32](repeating: 0, count: columns.merchantCount)
        let center = query.center
        let radius = query.radius?.meters
        let region = query.region
        let columns = self.columns

        @inline(__always)
        func consider(_ row: Int) {
            guard filter.matches(flags: columns.flags[row], territory: columns.territory[row]) else { return }
            let key = columns.rowKey[row]
            if let keys, !keys.contains(key) { return }
            if let region {
                let latitude = columns.latitude[row]
                guard !latitude.isNaN, region.contains(latitude: latitude, longitude: columns.longitude[row]) else { return }
            }
            var distance = Double.infinity
            if let center {
                distance = columns.distance(ofRow: row, from: center)
                if let radius, !(distance <= radius) { return }
            }
            let position = Int(positions[Int(key) - 1])
            if position == 0 {
                matches.append(Match(key: key, row: Int32(row), distance: distance, count: 1))
                positions[Int(key) - 1] = Int32(matches.count)
                return
            }
            matches.withUnsafeMutableBufferPointer { buffer in
                let shown = Int(buffer[position - 1].row)
                buffer[position - 1].count += 1
                if distance < buffer[position - 1].distance
                    || (distance == buffer[position - 1].distance && columns.directoryRowID[row] < columns.directoryRowID[shown])
                {
                    buffer[position - 1].distance = distance
                    buffer[position - 1].row = Int32(row)
                }
            }
        }

        // Candidates from the R*Tree: the region's boxes, else the radius's (the exact checks decide).
        let boxes = region?.boxes ?? center.flatMap { center in radius.map { ExploreGeo.boundingBoxes(around: center, radiusMeters: $0) } }
        if let boxes {
            let tiles = try database.read { db in
                var tiles = Set<Int>()
                let statement = try db.cachedStatement(
                    sql: "SELECT id FROM location_rtree WHERE maxLat >= ? AND minLat <= ? AND maxLon >= ? AND minLon <= ?"
                )
                for box in boxes {
                    // A tile met by two boxes is visited once: its rows must be counted once.
                    tiles.formUnion(
                        try Int.fetchAll(statement, arguments: [box.minLatitude, box.maxLatitude, box.minLongitude, box.maxLongitude]))
                }
                return tiles.sorted()
            }
            for tile in tiles {
                for row in columns.rows(ofTile: tile) { consider(row) }
            }
        } else if let keys {
            for key in keys.sorted() {
                for row in columns.rows(ofMerchant: key) { consider(Int(row)) }
            }
        } else {
            for row in 0..<columns.rowCount { consider(row) }
        }
        return matches
    }

    /// Puts the first `limit` matches in the query's order at the front, sorted (the rest in no order).
    private func sort(_ matches: inout [Match], by order: ExploreMerchantSort, limit: Int) {
        let columns = self.columns
        let precedes: (Match, Match) -> Bool
        switch order {
        case .name:
            precedes = { columns.merchantNameRank[Int($0.key) - 1] < columns.merchantNameRank[Int($1.key) - 1] }
        case .distance:
            precedes = { $0.distance != $1.distance ? $0.distance < $1.distance : $0.key < $1.key }
        case .discount:
            precedes = { lhs, rhs in
                let left = columns.merchantDiscount[Int(lhs.key) - 1]
                let right = columns.merchantDiscount[Int(rhs.key) - 1]
                return left != right ? left > right : lhs.key < rhs.key
            }
        }
        ExploreOrdering.sortPrefix(&matches, count: limit, by: precedes)
    }

    static func pageSlice<Item>(_ items: [Item], page: PageRequest) -> ArraySlice<Item> {
        items[page.range(in: items.count)]
    }
}
