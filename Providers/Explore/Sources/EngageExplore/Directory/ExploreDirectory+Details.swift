@_spi(EngageProvider) import EngageCore
import Foundation
import GRDB

extension ExploreDirectory {
    /// The directory columns a merchant or location is shown with (`NULL` where the schema lacks one).
    var detailColumnsSQL: String {
        let names = [
            "paymentMethod", "type", "redeemType", "denominationsType", "website", "logoLocation", "deeplink",
            "address1", "address2", "address3", "address4", "city", "territory", "phone", "googleMaps", "plusCode",
        ]
        return names.map { schema.merchantHas($0) ? "m.\"\($0)\"" : "NULL" }.joined(separator: ", ")
    }

    /// Full merchants for matches, in the matches' order.
    func details(of matches: ArraySlice<Match>, center: GeoPoint?) throws -> [ExploreMerchant] {
        guard !matches.isEmpty else { return [] }
        let columns = self.columns
        let rowIDs = matches.map { columns.directoryRowID[Int($0.row)] }
        let keys = matches.map { Int64($0.key) }
        let decoder = JSONDecoder()
        return try database.read { db in
            var rows: [Int64: Row] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT m.rowid, \(detailColumnsSQL) FROM dir.merchant m WHERE m.rowid IN (\(Self.placeholders(rowIDs.count)))",
                arguments: StatementArguments(rowIDs)
            ) {
                rows[try row.decode(Int64.self, atIndex: 0)] = row
            }
            var merchants: [Int64: (merchantID: String, name: String, offers: [ExploreGiftCardOffer], discount: Int)] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT key, merchantId, name, offers, discount FROM merchants WHERE key IN (\(Self.placeholders(keys.count)))",
                arguments: StatementArguments(keys)
            ) {
                let offersJSON: String? = try row.decode(atIndex: 3)
                let offers = offersJSON.flatMap { try? decoder.decode([ExploreGiftCardOffer].self, from: Data($0.utf8)) } ?? []
                merchants[try row.decode(Int64.self, atIndex: 0)] = (
                    try row.decode(atIndex: 1), try row.decode(atIndex: 2), offers, try row.decode(atIndex: 4)
                )
            }
            return matches.compactMap { match -> ExploreMerchant? in
                let index = Int(match.row)
                guard let row = rows[columns.directoryRowID[index]], let merchant = merchants[Int64(match.key)] else { return nil }
                return Self.merchant(
                    row: row, merchant: merchant, location: location(row: row, index: index, center: center), count: match.count
                )
            }
        }
    }

    /// A location from a detail row (columns as in ``detailColumnsSQL``, after the row id).
    func location(row: Row, index: Int, center: GeoPoint?) -> ExploreLocation {
        let latitude = columns.latitude[index]
        let longitude = columns.longitude[index]
        let located = !latitude.isNaN
        let distance = located ? center.map { columns.distance(ofRow: index, from: $0) } : nil
        let lines = (8...11).compactMap { Self.nonEmpty(ExploreDirectoryContents.text(row, $0)) }
        return ExploreLocation(
            id: columns.directoryRowID[index], latitude: located ? latitude : nil, longitude: located ? longitude : nil,
            distanceMeters: distance, addressLines: lines, city: Self.nonEmpty(ExploreDirectoryContents.text(row, 12)),
            territory: Self.nonEmpty(ExploreDirectoryContents.text(row, 13)), phone: Self.nonEmpty(ExploreDirectoryContents.text(row, 14)),
            googleMaps: Self.nonEmpty(ExploreDirectoryContents.text(row, 15)),
            plusCode: Self.nonEmpty(ExploreDirectoryContents.text(row, 16))
        )
    }

    private static func merchant(
        row: Row, merchant: (merchantID: String, name: String, offers: [ExploreGiftCardOffer], discount: Int), location: ExploreLocation,
        count: Int
    ) -> ExploreMerchant {
        let type =
            ExploreMerchantType(directoryValue: ExploreDirectoryContents.text(row, 2)) ?? (location.latitude == nil ? .online : .physical)
        return ExploreMerchant(
            merchantID: merchant.merchantID, name: merchant.name,
            paymentMethod: ExplorePaymentMethod(directoryValue: ExploreDirectoryContents.text(row, 1)), type: type,
            redeemType: ExploreRedeemType(directoryValue: ExploreDirectoryContents.text(row, 3)),
            denominationsType: ExploreDenominationsType(directoryValue: ExploreDirectoryContents.text(row, 4))
                ?? merchant.offers.lazy.compactMap(\.denominationsType).first,
            discountBasisPoints: merchant.discount, giftCardOffers: merchant.offers,
            website: nonEmpty(ExploreDirectoryContents.text(row, 5)), logoURL: nonEmpty(ExploreDirectoryContents.text(row, 6)),
            deeplink: nonEmpty(ExploreDirectoryContents.text(row, 7)), location: location, locationCount: count
        )
    }

    static func nonEmpty(_ text: String?) -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        return trimmed
    }

    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ",")
    }
}
