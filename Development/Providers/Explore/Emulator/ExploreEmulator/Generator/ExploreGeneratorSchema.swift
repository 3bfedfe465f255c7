import GRDB

/// The `CREATE` statements of each schema family, as the published files have them.
enum ExploreGeneratorSchema {
    static func create(_ version: ExploreDirectoryGenerator.SchemaFamily, in db: Database) throws {
        let merchantID = version == .v1 ? "merchantId INTEGER" : "merchantId TEXT"
        var columns = [
            "id INTEGER PRIMARY KEY AUTOINCREMENT", merchantID, "name TEXT", "active INTEGER DEFAULT 1", "paymentMethod TEXT", "type TEXT",
        ]
        if version >= .v2 { columns += ["redeemType TEXT DEFAULT 'barcode'"] }
        if version >= .v4 { columns += ["denominationsType TEXT"] }
        if version >= .v2 { columns += ["savingsPercentage INTEGER"] }
        columns += [
            "latitude REAL", "longitude REAL", "address1 TEXT", "address2 TEXT", "address3 TEXT", "address4 TEXT", "city TEXT",
            "territory TEXT", "website TEXT", "phone TEXT", "source TEXT", "sourceId TEXT", "logoLocation TEXT", "coverImage TEXT",
            "googleMaps TEXT", "deeplink TEXT", "plusCode TEXT", "addDate TEXT", "updateDate TEXT",
        ]
        try db.execute(sql: "CREATE TABLE merchant(\(columns.joined(separator: ", ")))")
        try db.execute(sql: "CREATE INDEX merchant_latitude ON merchant(latitude); CREATE INDEX merchant_longitude ON merchant(longitude)")
        try db.execute(
            sql: """
                CREATE TABLE atm(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT, manufacturer TEXT, postcode TEXT, type TEXT,
                    latitude REAL, longitude REAL, address1 TEXT, address2 TEXT, address3 TEXT, address4 TEXT, city TEXT, territory TEXT,
                    website TEXT, phone TEXT, active INTEGER DEFAULT 1)
                """)
        if version >= .v4 {
            try db.execute(
                sql: """
                    CREATE TABLE gift_card_providers(id INTEGER PRIMARY KEY AUTOINCREMENT, merchantId TEXT, provider TEXT, redeemType TEXT,
                        savingsPercentage INTEGER, active INTEGER DEFAULT 1, denominationsType TEXT, sourceId TEXT)
                    """)
            try? db.execute(sql: "CREATE VIRTUAL TABLE merchant_fts USING fts4(name, content='merchant')")
        }
    }
}
