@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation

/// A promotions request `POST /promotions` answered, parsed from its query and body.
public struct CroboxPromotionRequest: Sendable, Equatable {
    /// The query string as received, still percent-encoded.
    public var rawQuery: String
    /// Every query item, percent-decoded (RFC 3986: `+` is a literal plus), in the order sent.
    public var queryItems: [QueryItem]
    /// The request body as received (`0=<id>&1=<id>…`, still percent-encoded).
    public var rawBody: String
    /// The `Content-Type` header, when sent (the SDKs send `application/x-www-form-urlencoded`).
    public var contentType: String?
    /// The container id, `cid` (one of the configured ones).
    public var containerID: String
    /// The visitor id, `pid` (a UUID in any letter case on the wire).
    public var visitorID: UUID
    /// The placeholder id, `vpid`.
    public var placeholderID: String
    /// The requested product ids, decoded, in index order (empty: a page-level request).
    public var productIDs: [String]
    /// The per-page-view event counter, `e`.
    public var counter: Int?
    /// The page view id, `vid`.
    public var viewID: String?
    /// The page type, `pt` (0 Other … 7 Search).
    public var pageType: Int?
    /// The SDK marker, `sdk` (1 iOS, 2 Android).
    public var sdk: Int?
    /// The client's clock when it sent the request, `ts` decoded from base-36 epoch milliseconds.
    public var timestamp: Date?
    /// The page's custom properties, from the `cp.<key>` items (the first value of each key).
    public var customProperties: [String: String]
    /// The Android checksum `z` when sent (it was verified before the request was answered).
    public var checksum: String?
    /// When the emulator received the request, from the host's clock.
    public var receivedAt: Date

    /// The first decoded value of the query item `key`, or `nil`.
    public subscript(key: String) -> String? {
        queryItems.first { $0.name == key }?.value
    }

    /// Every decoded value of the query item `key`, in order.
    public func values(_ key: String) -> [String] {
        queryItems.filter { $0.name == key }.map(\.value)
    }

    /// The SDK dialect the request was sent in, or `nil` when `sdk` is absent or unknown.
    public var dialect: CroboxSDKDialect? { sdk.flatMap(CroboxSDKDialect.init(rawValue:)) }
}

extension CroboxPromotionRequest {
    /// Parses a promotions request.
    /// - Throws: 405 for a missing or unknown container id; 400 for a `pid` that is not a UUID, a
    ///   missing `vpid`, a malformed body or a malformed typed parameter.
    init(
        rawQuery: String, body: String, contentType: String?, knownContainerIDs: Set<String>, receivedAt: Date
    ) throws(CroboxRejection) {
        typealias Key = CroboxEmulatorWire.Key
        let items = QueryString.decode(rawQuery)
        let lookup = QueryLookup(items: items)
        guard let containerID = lookup[Key.containerID], knownContainerIDs.contains(containerID) else {
            let sent = lookup[Key.containerID].map { "'\($0.prefix(40))'" } ?? "missing"
            throw CroboxRejection(
                status: .methodNotAllowed, code: "unknown_container",
                description: "The container id (cid) is \(sent); it is not a known container.",
                headers: [.allow: "POST"]
            )
        }
        let parameters = try CroboxQueryParameters(items: items)
        guard let visitorText = parameters.visitorID, let visitorID = UUID(uuidString: visitorText) else {
            let sent = parameters.visitorID.map { "'\($0.prefix(40))'" } ?? "missing"
            throw .invalidRequest("pid (visitor id) must be a UUID, got \(sent).")
        }
        guard let placeholderID = lookup[Key.placeholderID], !placeholderID.isEmpty else {
            throw .invalidRequest("vpid (placeholder id) is required.")
        }
        self.rawQuery = rawQuery
        self.queryItems = items
        self.rawBody = body
        self.contentType = contentType
        self.containerID = containerID
        self.visitorID = visitorID
        self.placeholderID = placeholderID
        self.productIDs = try Self.productIDs(fromBody: body)
        self.counter = parameters.counter
        self.viewID = parameters.viewID
        self.pageType = parameters.pageType
        self.sdk = parameters.sdk
        self.timestamp = parameters.timestamp
        self.customProperties = parameters.customProperties
        self.checksum = parameters.checksum
        self.receivedAt = receivedAt
    }

    /// The product ids of a `0=<id>&1=<id>…` body (RFC 3986 decoding), ordered by index.
    /// - Throws: 400 when a key is not a canonical index, repeats, or leaves a gap.
    static func productIDs(fromBody body: String) throws(CroboxRejection) -> [String] {
        var byIndex: [Int: String] = [:]
        for item in QueryString.decode(body) {
            guard let index = Int(item.name), index >= 0, String(index) == item.name else {
                throw .invalidRequest("Body keys must be product indexes 0, 1, 2…; got '\(item.name.prefix(40))'.")
            }
            guard byIndex.updateValue(item.value, forKey: index) == nil else {
                throw .invalidRequest("Body key \(index) appears more than once.")
            }
        }
        var productIDs: [String] = []
        productIDs.reserveCapacity(byIndex.count)
        for index in 0..<byIndex.count {
            guard let productID = byIndex[index] else {
                throw .invalidRequest("Body keys must be 0..<\(byIndex.count) without gaps; \(index) is missing.")
            }
            productIDs.append(productID)
        }
        return productIDs
    }
}
