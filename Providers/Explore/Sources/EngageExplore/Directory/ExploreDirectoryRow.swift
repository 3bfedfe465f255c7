import Foundation

/// One `merchant` row of a directory file as the index reads it, with every stray value resolved.
///
/// The rules, shared by the index and by anyone checking it against a scan of the raw rows:
/// - rows with `active = 0` or `redeemType = 'url'` are left out;
/// - a location is a finite latitude in -90...90 and longitude in -180...180, other than (0, 0)
///   (the placeholder the directory uses for online merchants);
/// - a missing `type` is `physical` for a located row and `online` otherwise;
/// - a missing or empty `merchantId` makes the row a merchant of its own, `row-<rowid>`.
struct ExploreDirectoryRow: Sendable {
    var rowID: Int64
    var merchantID: String
    var name: String
    var latitude: Double?
    var longitude: Double?
    var paymentMethod: ExplorePaymentMethod?
    var type: ExploreMerchantType
    var denominationsType: ExploreDenominationsType?
    var savingsBasisPoints: Int?
    var territory: String?

    /// Resolves a raw row, or `nil` when the row is left out of the directory.
    init?(
        rowID: Int64, merchantID: String?, name: String?, latitude: Double?, longitude: Double?, active: Int64?,
        paymentMethod: String?, type: String?, redeemType: String?, denominationsType: String?, savingsPercentage: Int64?,
        territory: String?
    ) {
        if active == 0 { return nil }
        if ExploreRedeemType(directoryValue: redeemType) == .url { return nil }
        self.rowID = rowID
        let trimmedID = merchantID?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        self.merchantID = trimmedID.isEmpty ? "row-\(rowID)" : trimmedID
        self.name = name?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if let latitude, let longitude, Self.isLocation(latitude: latitude, longitude: longitude) {
            self.latitude = latitude
            self.longitude = longitude
        }
        self.paymentMethod = ExplorePaymentMethod(directoryValue: paymentMethod)
        self.type = ExploreMerchantType(directoryValue: type) ?? (self.latitude == nil ? .online : .physical)
        self.denominationsType = ExploreDenominationsType(directoryValue: denominationsType)
        self.savingsBasisPoints = savingsPercentage.map { Int(clamping: $0) }
        let trimmedTerritory = territory?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        self.territory = trimmedTerritory.isEmpty ? nil : trimmedTerritory
    }

    static func isLocation(latitude: Double, longitude: Double) -> Bool {
        latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude) && (-180...180).contains(longitude)
            && !(latitude == 0 && longitude == 0)
    }
}
