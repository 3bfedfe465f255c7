import Foundation

/// A query's conditions on one row, compiled to masks: the row must share a bit with every required
/// group, have none of the excluded bits, and be in the territory when one is asked for.
struct ExploreRowFilter: Sendable {
    var requiredGroups: [UInt16] = []
    var excluded: UInt16 = 0
    /// `nil`: any territory; `-1`: a territory the directory does not have (nothing matches).
    var territory: Int32?

    init(query: ExploreMerchantQuery, hidesPiggyCardsOnly: Bool, territoryCodes: [String: Int32]) {
        func group<Value>(_ values: Set<Value>, _ flag: (Value) -> ExploreRowFlags) -> UInt16? {
            values.isEmpty ? nil : values.reduce(ExploreRowFlags()) { $0.union(flag($1)) }.rawValue
        }
        requiredGroups = [
            group(query.paymentMethods, ExploreRowFlags.init),
            group(query.giftCardProviders, ExploreRowFlags.init),
            group(query.denominationsTypes, ExploreRowFlags.init),
        ].compactMap { $0 }
        switch query.tab {
        case .online: requiredGroups.append(ExploreRowFlags.online.rawValue)
        case .nearby: requiredGroups.append(ExploreRowFlags.physical.rawValue)
        case .all: break
        }
        if hidesPiggyCardsOnly { excluded = ExploreRowFlags.piggyCardsOnly.rawValue }
        if let territory = query.territory?.trimmingCharacters(in: .whitespacesAndNewlines), !territory.isEmpty {
            self.territory = territoryCodes[ExploreNameOrder.key(territory)] ?? -1
        }
    }

    @inline(__always)
    func matches(flags: UInt16, territory rowTerritory: Int32) -> Bool {
        if flags & excluded != 0 { return false }
        for mask in requiredGroups where flags & mask == 0 { return false }
        if let territory, territory != rowTerritory { return false }
        return true
    }
}
