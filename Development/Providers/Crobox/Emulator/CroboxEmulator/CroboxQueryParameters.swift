@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation

/// The parameters every Crobox request carries, parsed and checked (each is optional; a present one
/// must have the right form).
struct CroboxQueryParameters: Sendable {
    var items: [QueryItem]
    var lookup: QueryLookup
    var containerID: String?
    var visitorID: String?
    var counter: Int?
    var viewID: String?
    var pageType: Int?
    var sdk: Int?
    var timestamp: Date?
    var customProperties: [String: String]
    var checksum: String?

    /// Parses the decoded query items.
    /// - Throws: A 400 rejection when `e`, `pt`, `sdk` or `ts` is present but malformed.
    init(items: [QueryItem]) throws(CroboxRejection) {
        typealias Key = CroboxEmulatorWire.Key
        self.items = items
        self.lookup = QueryLookup(items: items)
        containerID = lookup[Key.containerID]
        visitorID = lookup[Key.visitorID]
        viewID = lookup[Key.viewID]
        checksum = lookup[Key.checksum]
        counter = try Self.integer(Key.eventCounter, in: lookup, minimum: 0)
        pageType = try Self.integer(Key.pageType, in: lookup, minimum: 0)
        sdk = try Self.integer(Key.sdk, in: lookup, minimum: 0)
        if let text = lookup[Key.timestamp] {
            guard let date = CroboxEmulatorWire.date(fromTimestamp: text) else {
                throw .invalidRequest("ts must be epoch milliseconds in base 36, got '\(text.prefix(40))'.")
            }
            timestamp = date
        }
        var properties: [String: String] = [:]
        let prefix = Key.customProperty("")
        for item in items where item.name.hasPrefix(prefix) {
            let key = String(item.name.dropFirst(prefix.count))
            if properties[key] == nil { properties[key] = item.value }
        }
        customProperties = properties
    }

    /// The integer value of `key`, `nil` when absent.
    /// - Throws: A 400 rejection when present but not an integer of at least `minimum`.
    static func integer(_ key: String, in lookup: QueryLookup, minimum: Int) throws(CroboxRejection) -> Int? {
        guard let text = lookup[key] else { return nil }
        guard let value = Int(text), value >= minimum else {
            throw .invalidRequest("\(key) must be an integer of at least \(minimum), got '\(text.prefix(40))'.")
        }
        return value
    }

    /// The decimal value of `key`, `nil` when absent.
    /// - Throws: A 400 rejection when present but not a finite number.
    static func decimal(_ key: String, in lookup: QueryLookup) throws(CroboxRejection) -> Double? {
        guard let text = lookup[key] else { return nil }
        guard let value = Double(text), value.isFinite else {
            throw .invalidRequest("\(key) must be a number, got '\(text.prefix(40))'.")
        }
        return value
    }
}
