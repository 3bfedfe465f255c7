@_spi(EngageProvider) import EngageCore
import Foundation
import GRDB

/// Writes the index tables for resolved directory contents (see ``ExploreIndexBuilder``).
struct ExploreIndexWriter {
    let contents: ExploreDirectoryContents
    let fingerprint: String

    static let schemaSQL = """
        CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE merchants(
            key INTEGER PRIMARY KEY, merchantId TEXT NOT NULL, name TEXT NOT NULL, nameRank INTEGER NOT NULL,
            discount INTEGER NOT NULL, offers TEXT NOT NULL);
        CREATE UNIQUE INDEX merchants_merchantId ON merchants(merchantId);
        CREATE TABLE rows(
            id INTEGER PRIMARY KEY, dirRowID INTEGER NOT NULL, key INTEGER NOT NULL, latitude REAL, longitude REAL,
            flags INTEGER NOT NULL, territory INTEGER NOT NULL);
        CREATE TABLE territories(code INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE tiles(id INTEGER PRIMARY KEY, firstRow INTEGER NOT NULL, rowCount INTEGER NOT NULL);
        CREATE VIRTUAL TABLE location_rtree USING rtree(id, minLat, maxLat, minLon, maxLon);
        CREATE VIRTUAL TABLE merchant_fts USING fts5(name, content='', tokenize="unicode61 remove_diacritics 2", prefix='1 2 3');
        CREATE VIRTUAL TABLE atm_rtree USING rtree(id, minLat, maxLat, minLon, maxLon);
        CREATE VIRTUAL TABLE atm_fts USING fts5(name, manufacturer, content='', tokenize="unicode61 remove_diacritics 2", prefix='1 2 3');
        """

    func write(to db: Database) throws {
        try db.execute(sql: Self.schemaSQL)
        let territories = try writeTerritories(db)
        try writeRows(db, territories: territories)
        try writeMerchants(db)
        try writeATMs(db)
        let meta: [(String, String)] = [
            ("format", ExploreIndexBuilder.formatVersion), ("fingerprint", fingerprint), ("schema", contents.schema.version.rawValue),
            ("rows", String(contents.rows.count)), ("merchants", String(contents.merchants.count)),
        ]
        for (key, value) in meta {
            try db.execute(sql: "INSERT INTO meta(key, value) VALUES (?, ?)", arguments: [key, value])
        }
    }

    /// Territory codes (1...) by folded name; the first spelling seen is kept.
    private func writeTerritories(_ db: Database) throws -> [String: Int64] {
        var codes: [String: Int64] = [:]
        let insert = try db.makeStatement(sql: "INSERT INTO territories(code, name) VALUES (?, ?)")
        for row in contents.rows {
            guard let territory = row.territory else { continue }
            let key = ExploreNameOrder.key(territory)
            guard codes[key] == nil else { continue }
            let code = Int64(codes.count + 1)
            codes[key] = code
            try insert.execute(arguments: [code, territory])
        }
        return codes
    }

    /// Writes the rows tile by tile (located rows first, grouped by ``ExploreTile``; then the unlocated
    /// ones), one `tiles` entry per tile with its range of rows, and one R*Tree box per tile: the
    /// smallest box around its rows.
    private func writeRows(_ db: Database, territories: [String: Int64]) throws {
        let tiles = contents.rows.map { row in
            row.latitude.flatMap { latitude in row.longitude.map { ExploreTile(latitude: latitude, longitude: $0) } }
        }
        let order = contents.rows.indices.sorted { lhs, rhs in
            switch (tiles[lhs], tiles[rhs]) {
            case let (left?, right?) where left != right: return left < right
            case (.some, nil): return true
            case (nil, .some): return false
            default:
                let left = contents.rowKeys[lhs]
                let right = contents.rowKeys[rhs]
                return left != right ? left < right : contents.rows[lhs].rowID < contents.rows[rhs].rowID
            }
        }
        let insertRow = try db.makeStatement(
            sql: "INSERT INTO rows(id, dirRowID, key, latitude, longitude, flags, territory) VALUES (?, ?, ?, ?, ?, ?, ?)"
        )
        let insertTile = try db.makeStatement(sql: "INSERT INTO tiles(id, firstRow, rowCount) VALUES (?, ?, ?)")
        let insertBox = try db.makeStatement(sql: "INSERT INTO location_rtree(id, minLat, maxLat, minLon, maxLon) VALUES (?, ?, ?, ?, ?)")
        var open: (tile: ExploreTile, id: Int64, firstRow: Int64, count: Int64, box: ExploreGeo.Box)?
        func closeTile() throws {
            guard let tile = open else { return }
            try insertTile.execute(arguments: [tile.id, tile.firstRow, tile.count])
            try insertBox.execute(arguments: [
                tile.id, tile.box.minLatitude, tile.box.maxLatitude, tile.box.minLongitude, tile.box.maxLongitude,
            ])
        }
        for (position, index) in order.enumerated() {
            let row = contents.rows[index]
            let merchant = contents.merchants[Int(contents.rowKeys[index]) - 1]
            let id = Int64(position + 1)
            let flags = Self.flags(of: row, merchant: merchant)
            let territory = row.territory.flatMap { territories[ExploreNameOrder.key($0)] } ?? 0
            try insertRow.execute(arguments: [
                id, row.rowID, Int64(merchant.key), row.latitude, row.longitude, Int64(flags.rawValue), territory,
            ])
            guard let tile = tiles[index], let latitude = row.latitude, let longitude = row.longitude else { continue }
            if var current = open, current.tile == tile {
                current.count += 1
                current.box.minLatitude = min(current.box.minLatitude, latitude)
                current.box.maxLatitude = max(current.box.maxLatitude, latitude)
                current.box.minLongitude = min(current.box.minLongitude, longitude)
                current.box.maxLongitude = max(current.box.maxLongitude, longitude)
                open = current
            } else {
                try closeTile()
                let box = ExploreGeo.Box(minLatitude: latitude, maxLatitude: latitude, minLongitude: longitude, maxLongitude: longitude)
                open = (tile, (open?.id ?? 0) + 1, id, 1, box)
            }
        }
        try closeTile()
    }

    private func writeMerchants(_ db: Database) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let insert = try db.makeStatement(
            sql: "INSERT INTO merchants(key, merchantId, name, nameRank, discount, offers) VALUES (?, ?, ?, ?, ?, ?)"
        )
        let insertName = try db.makeStatement(sql: "INSERT INTO merchant_fts(rowid, name) VALUES (?, ?)")
        for merchant in contents.merchants {
            let offers = String(decoding: try encoder.encode(merchant.offers), as: UTF8.self)
            try insert.execute(arguments: [
                Int64(merchant.key), merchant.merchantID, merchant.name, Int64(merchant.nameRank), Int64(merchant.discountBasisPoints),
                offers,
            ])
            try insertName.execute(arguments: [Int64(merchant.key), merchant.name])
        }
    }

    private func writeATMs(_ db: Database) throws {
        let insertBox = try db.makeStatement(sql: "INSERT INTO atm_rtree(id, minLat, maxLat, minLon, maxLon) VALUES (?, ?, ?, ?, ?)")
        let insertText = try db.makeStatement(sql: "INSERT INTO atm_fts(rowid, name, manufacturer) VALUES (?, ?, ?)")
        for atm in contents.atms {
            try insertBox.execute(arguments: [atm.rowID, atm.latitude, atm.latitude, atm.longitude, atm.longitude])
            try insertText.execute(arguments: [atm.rowID, atm.name, atm.manufacturer])
        }
    }

    /// A row's flags: its own payment method, type and denominations (or its offers'), its merchant's
    /// providers, and whether it is located.
    static func flags(of row: ExploreDirectoryRow, merchant: ExploreDirectoryContents.Merchant) -> ExploreRowFlags {
        var flags = merchant.providerFlags
        if let method = row.paymentMethod { flags.insert(ExploreRowFlags(method)) }
        flags.insert(ExploreRowFlags(row.type))
        if let denominations = row.denominationsType {
            flags.insert(ExploreRowFlags(denominations))
        } else {
            for offer in merchant.offers { if let denominations = offer.denominationsType { flags.insert(ExploreRowFlags(denominations)) } }
        }
        if row.latitude != nil { flags.insert(.located) }
        return flags
    }
}
