@_spi(EngageProvider) import EngageCore
import Foundation
import GRDB

/// Everything the index needs from a directory file, read in one pass and resolved: rows, merchants
/// (with their offers and discount), territories and ATMs.
struct ExploreDirectoryContents {
    struct Merchant {
        var key: Int32
        var merchantID: String
        var name: String
        var offers: [ExploreGiftCardOffer] = []
        var providerFlags: ExploreRowFlags = []
        var ownSavings: Int?
        var discountBasisPoints = 0
        var nameRank: Int32 = 0
    }

    struct ATM {
        var rowID: Int64
        var name: String
        var manufacturer: String
        var latitude: Double
        var longitude: Double
    }

    var schema: ExploreSchema
    /// Listed rows, in row id order.
    var rows: [ExploreDirectoryRow]
    /// Merchant key of each row of `rows`.
    var rowKeys: [Int32]
    /// Merchants by key (index = key - 1).
    var merchants: [Merchant]
    var atms: [ATM]

    static func read(from db: Database) throws -> ExploreDirectoryContents {
        let schema = try ExploreSchema.detect(in: db)
        var contents = ExploreDirectoryContents(schema: schema, rows: [], rowKeys: [], merchants: [], atms: [])
        try contents.readRows(db)
        let offers = try readOffers(db, schema: schema)
        contents.resolveMerchants(offers: offers)
        if schema.hasATMs { contents.atms = try readATMs(db, schema: schema) }
        return contents
    }

    private mutating func readRows(_ db: Database) throws {
        func column(_ name: String) -> String { schema.merchantHas(name) ? "\"\(name)\"" : "NULL" }
        let merchantID = schema.merchantHas("merchantId") ? "CAST(\"merchantId\" AS TEXT)" : "NULL"
        let sql = """
            SELECT rowid, \(merchantID), "name", "latitude", "longitude", \(column("active")), \(column("paymentMethod")),
                   \(column("type")), \(column("redeemType")), \(column("denominationsType")), \(column("savingsPercentage")),
                   \(column("territory"))
            FROM merchant ORDER BY rowid
            """
        var keys: [String: Int32] = [:]
        let cursor = try Row.fetchCursor(db, sql: sql)
        while let raw = try cursor.next() {
            guard
                let row = ExploreDirectoryRow(
                    rowID: raw[0], merchantID: Self.text(raw, 1), name: Self.text(raw, 2), latitude: Self.real(raw, 3),
                    longitude: Self.real(raw, 4), active: Self.integer(raw, 5), paymentMethod: Self.text(raw, 6), type: Self.text(raw, 7),
                    redeemType: Self.text(raw, 8), denominationsType: Self.text(raw, 9), savingsPercentage: Self.integer(raw, 10),
                    territory: Self.text(raw, 11)
                )
            else { continue }
            let key: Int32
            if let existing = keys[row.merchantID] {
                key = existing
                let index = Int(key) - 1
                if merchants[index].name.isEmpty { merchants[index].name = row.name }
            } else {
                key = Int32(merchants.count + 1)
                keys[row.merchantID] = key
                merchants.append(Merchant(key: key, merchantID: row.merchantID, name: row.name))
            }
            if let savings = row.savingsBasisPoints {
                let index = Int(key) - 1
                merchants[index].ownSavings = max(merchants[index].ownSavings ?? .min, savings)
            }
            rows.append(row)
            rowKeys.append(key)
        }
    }

    /// Offers per merchant id: active, non-`url` provider rows. PiggyCards rows count for the
    /// "PiggyCards only" rule even in builds without the trait, where they are not listed as offers.
    private static func readOffers(
        _ db: Database, schema: ExploreSchema
    ) throws -> [String: (offers: [ExploreGiftCardOffer], piggyCards: Bool, others: Bool)] {
        guard schema.hasGiftCardProviders else { return [:] }
        func column(_ name: String) -> String { schema.providerColumns.contains(name.lowercased()) ? "\"\(name)\"" : "NULL" }
        let sql = """
            SELECT CAST("merchantId" AS TEXT), "provider", \(column("savingsPercentage")), \(column("active")),
                   \(column("denominationsType")), \(column("redeemType")), \(column("sourceId"))
            FROM gift_card_providers ORDER BY rowid
            """
        var result: [String: (offers: [ExploreGiftCardOffer], piggyCards: Bool, others: Bool)] = [:]
        let cursor = try Row.fetchCursor(db, sql: sql)
        while let raw = try cursor.next() {
            guard let merchantID = text(raw, 0)?.trimmingCharacters(in: .whitespacesAndNewlines), !merchantID.isEmpty else { continue }
            if integer(raw, 3) == 0 || ExploreRedeemType(directoryValue: text(raw, 5)) == .url { continue }
            let providerName = text(raw, 1)
            var entry = result[merchantID] ?? ([], false, false)
            if ExploreGiftCardProviderID.isPiggyCards(providerName) { entry.piggyCards = true } else { entry.others = true }
            if let provider = ExploreGiftCardProviderID(directoryValue: providerName) {
                entry.offers.append(
                    ExploreGiftCardOffer(
                        provider: provider, savingsBasisPoints: integer(raw, 2).map { Int(clamping: $0) } ?? 0,
                        denominationsType: ExploreDenominationsType(directoryValue: text(raw, 4)),
                        redeemType: ExploreRedeemType(directoryValue: text(raw, 5)), sourceID: text(raw, 6)
                    ))
            }
            result[merchantID] = entry
        }
        return result
    }

    /// Offers, discount and flags per merchant, then the name ranks.
    private mutating func resolveMerchants(offers: [String: (offers: [ExploreGiftCardOffer], piggyCards: Bool, others: Bool)]) {
        // Files without a provider table predate PiggyCards: their gift cards are CTX's.
        let impliedCTX = !schema.hasGiftCardProviders
        var giftCardMerchants = Set<Int32>()
        if impliedCTX {
            for (index, row) in rows.enumerated() where row.paymentMethod == .giftCard { giftCardMerchants.insert(rowKeys[index]) }
        }
        for index in merchants.indices {
            var merchant = merchants[index]
            if let entry = offers[merchant.merchantID] {
                merchant.offers = entry.offers
                for offer in entry.offers { merchant.providerFlags.insert(ExploreRowFlags(offer.provider)) }
                if entry.piggyCards {
                    merchant.providerFlags.insert(.piggyCards)
                    if !entry.others { merchant.providerFlags.insert(.piggyCardsOnly) }
                }
            } else if impliedCTX, giftCardMerchants.contains(merchant.key) {
                merchant.offers = [ExploreGiftCardOffer(provider: .ctx, savingsBasisPoints: merchant.ownSavings ?? 0)]
                merchant.providerFlags.insert(.ctx)
            }
            merchant.discountBasisPoints = merchant.offers.map(\.savingsBasisPoints).max() ?? merchant.ownSavings ?? 0
            merchants[index] = merchant
        }
        let order = merchants.indices.sorted { lhs, rhs in
            let left = ExploreNameOrder.key(merchants[lhs].name)
            let right = ExploreNameOrder.key(merchants[rhs].name)
            return left != right ? left < right : merchants[lhs].key < merchants[rhs].key
        }
        for (rank, index) in order.enumerated() { merchants[index].nameRank = Int32(rank) }
    }

    private static func readATMs(_ db: Database, schema: ExploreSchema) throws -> [ATM] {
        func column(_ name: String) -> String { schema.atmColumns.contains(name.lowercased()) ? "\"\(name)\"" : "NULL" }
        let sql =
            "SELECT rowid, \(column("name")), \(column("manufacturer")), \"latitude\", \"longitude\", \(column("active")) FROM atm ORDER BY rowid"
        var atms: [ATM] = []
        let cursor = try Row.fetchCursor(db, sql: sql)
        while let raw = try cursor.next() {
            if integer(raw, 5) == 0 { continue }
            guard let latitude = real(raw, 3), let longitude = real(raw, 4),
                ExploreDirectoryRow.isLocation(latitude: latitude, longitude: longitude)
            else { continue }
            atms.append(
                ATM(rowID: raw[0], name: text(raw, 1) ?? "", manufacturer: text(raw, 2) ?? "", latitude: latitude, longitude: longitude))
        }
        return atms
    }

    // Lenient column readers: the directory stores numbers as text and text as numbers at times.

    static func text(_ row: Row, _ index: Int) -> String? {
        switch row[index] as DatabaseValue {
        case let value where value.isNull: return nil
        case let value:
            if let string = String.fromDatabaseValue(value) { return string }
            if let integer = Int64.fromDatabaseValue(value) { return String(integer) }
            if let double = Double.fromDatabaseValue(value) { return String(double) }
            return nil
        }
    }

    static func real(_ row: Row, _ index: Int) -> Double? {
        let value: DatabaseValue = row[index]
        switch value.storage {
        case .null, .blob: return nil
        case let .int64(integer): return Double(integer)
        case let .double(double): return double
        case let .string(string): return Double(string.trimmingCharacters(in: .whitespaces))
        }
    }

    static func integer(_ row: Row, _ index: Int) -> Int64? {
        let value: DatabaseValue = row[index]
        switch value.storage {
        case .null, .blob: return nil
        case let .int64(integer): return integer
        case let .double(double): return double.isFinite && abs(double) < 9e18 ? Int64(double.rounded()) : nil
        case let .string(string): return Int64(string.trimmingCharacters(in: .whitespaces))
        }
    }
}

/// The order of merchant names: case- and diacritic-insensitive, then by key for ties.
enum ExploreNameOrder {
    static func key(_ name: String) -> String {
        name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }
}
