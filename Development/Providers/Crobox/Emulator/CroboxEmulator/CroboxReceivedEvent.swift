@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation

/// An event `GET /socket.gif` accepted, parsed from its query.
///
/// The typed properties cover what every event carries and the product fields; everything else (for
/// example `dt`, `stp`, `tid`, `rev`, `tg`, `nm`, `msg`, `promoId`) is read with the subscript, which
/// returns the first decoded value of a key: `event["tid"]`.
public struct CroboxReceivedEvent: Sendable, Equatable {
    /// The query string as received, still percent-encoded.
    public var rawQuery: String
    /// Every query item, percent-decoded (RFC 3986: `+` is a literal plus), in the order sent.
    public var queryItems: [QueryItem]
    /// The event type, `t` (see `CroboxEmulatorWire.EventType`: `pageview`, `click`, `cart`, `rmcart`,
    /// `error`, `event`).
    public var type: String
    /// The container id, `cid`.
    public var containerID: String
    /// The visitor id, `pid`, as sent (the iOS SDK sends an uppercase UUID).
    public var visitorID: String?
    /// The per-page-view event counter, `e`.
    public var counter: Int?
    /// The page view id, `vid`.
    public var viewID: String?
    /// The page type, `pt` (0 Other … 7 Search).
    public var pageType: Int?
    /// The SDK marker, `sdk` (1 iOS, 2 Android).
    public var sdk: Int?
    /// The client's clock when it sent the event, `ts` decoded from base-36 epoch milliseconds.
    public var timestamp: Date?
    /// The product id, `pi`.
    public var productID: String?
    /// The price, `price`.
    public var price: Double?
    /// The quantity, `qty`.
    public var quantity: Int?
    /// The impressions (product ids), from both the iOS `[i]` and the Android `imp[i]` keys, in index
    /// order (items with the same index in the order sent).
    public var impressions: [String]
    /// The page's custom properties, from the `cp.<key>` items (the first value of each key).
    public var customProperties: [String: String]
    /// The Android checksum `z` when sent (it was verified before the event was accepted).
    public var checksum: String?
    /// When the emulator received the event, from the host's clock.
    public var receivedAt: Date

    /// The first decoded value of the query item `key`, or `nil`.
    public subscript(key: String) -> String? {
        queryItems.first { $0.name == key }?.value
    }

    /// Every decoded value of the query item `key`, in order.
    public func values(_ key: String) -> [String] {
        queryItems.filter { $0.name == key }.map(\.value)
    }

    /// The visitor id as a UUID (case-insensitive), or `nil` when absent or not a UUID.
    public var visitorUUID: UUID? { visitorID.flatMap(UUID.init(uuidString:)) }

    /// The SDK dialect the event was sent in, or `nil` when `sdk` is absent or unknown.
    public var dialect: CroboxSDKDialect? { sdk.flatMap(CroboxSDKDialect.init(rawValue:)) }
}

extension CroboxReceivedEvent {
    /// Parses an event from its raw query.
    /// - Throws: 400 when `cid` or `t` is missing or a typed parameter is malformed.
    init(rawQuery: String, receivedAt: Date) throws(CroboxRejection) {
        typealias Key = CroboxEmulatorWire.Key
        let parameters = try CroboxQueryParameters(items: QueryString.decode(rawQuery))
        guard let containerID = parameters.containerID, !containerID.isEmpty else {
            throw .invalidRequest("cid (container id) is required.")
        }
        guard let type = parameters.lookup[Key.eventType], !type.isEmpty else {
            throw .invalidRequest("t (event type) is required.")
        }
        self.rawQuery = rawQuery
        self.queryItems = parameters.items
        self.type = type
        self.containerID = containerID
        self.visitorID = parameters.visitorID
        self.counter = parameters.counter
        self.viewID = parameters.viewID
        self.pageType = parameters.pageType
        self.sdk = parameters.sdk
        self.timestamp = parameters.timestamp
        self.productID = parameters.lookup[Key.productID]
        self.price = try CroboxQueryParameters.decimal(Key.price, in: parameters.lookup)
        self.quantity = try CroboxQueryParameters.integer(Key.quantity, in: parameters.lookup, minimum: 0)
        self.impressions = Self.impressions(in: parameters.items)
        self.customProperties = parameters.customProperties
        self.checksum = parameters.checksum
        self.receivedAt = receivedAt
    }

    /// The values of the `[i]` and `imp[i]` items, by index then in the order sent.
    static func impressions(in items: [QueryItem]) -> [String] {
        var indexed: [(index: Int, position: Int, value: String)] = []
        for (position, item) in items.enumerated() {
            if let index = impressionIndex(item.name) {
                indexed.append((index, position, item.value))
            }
        }
        return indexed.sorted { ($0.index, $0.position) < ($1.index, $1.position) }.map(\.value)
    }

    /// `i` for the keys `[i]` and `imp[i]` (`i` decimal digits), else `nil`.
    static func impressionIndex(_ name: String) -> Int? {
        let bracketed = name.hasPrefix("imp[") ? name.dropFirst(3) : Substring(name)
        guard bracketed.hasPrefix("["), bracketed.hasSuffix("]"), bracketed.count > 2 else { return nil }
        let digits = bracketed.dropFirst().dropLast()
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }
}
