/// One page of a longer list.
public struct Page<Item: Sendable>: Sendable {
    /// This page's items, in order.
    public var items: [Item]
    /// Zero-based index of the first item of this page within the whole list.
    public var offset: Int
    /// The number of items in the whole list, when known.
    public var totalCount: Int?

    /// A page of `items` starting at `offset` in a list of `totalCount` items (if known).
    public init(items: [Item], offset: Int = 0, totalCount: Int? = nil) {
        self.items = items
        self.offset = offset
        self.totalCount = totalCount
    }

    /// Whether items follow this page (unknown total counts as "maybe": `true` if the page is non-empty).
    public var hasMore: Bool {
        guard let totalCount else { return !items.isEmpty }
        return offset + items.count < totalCount
    }
}

extension Page: Equatable where Item: Equatable {}
extension Page: Codable where Item: Codable {}

/// Which page to fetch.
///
/// Always in range, however it is made: the initialiser and assignments clamp (`offset >= 0`,
/// `limit` in `1...maxLimit`), and decoding refuses values outside that range with a `DecodingError`
/// naming the field, so a page request can never make an operation trap.
public struct PageRequest: Codable, Sendable, Hashable {
    /// The largest page size.
    public static let maxLimit = 1000

    /// Zero-based index of the first item wanted (at least 0; a negative value is stored as 0).
    public var offset: Int {
        didSet { offset = max(0, offset) }
    }

    /// How many items are wanted (1 to ``maxLimit``; 100 by default; values outside are clamped).
    public var limit: Int {
        didSet { limit = Self.clampedLimit(limit) }
    }

    /// A request for `limit` items from `offset`; values are clamped to `offset >= 0` and `1...maxLimit`.
    public init(offset: Int = 0, limit: Int = 100) {
        self.offset = max(0, offset)
        self.limit = Self.clampedLimit(limit)
    }

    /// Decodes `offset` (default 0) and `limit` (default 100), refusing values out of range.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let offset = try container.decodeIfPresent(Int.self, forKey: .offset) ?? 0
        guard offset >= 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: .offset, in: container, debugDescription: "offset must be 0 or more, not \(offset).")
        }
        let limit = try container.decodeIfPresent(Int.self, forKey: .limit) ?? 100
        guard (1...Self.maxLimit).contains(limit) else {
            throw DecodingError.dataCorruptedError(
                forKey: .limit, in: container, debugDescription: "limit must be 1...\(Self.maxLimit), not \(limit).")
        }
        self.init(offset: offset, limit: limit)
    }

    private enum CodingKeys: String, CodingKey {
        case offset, limit
    }

    private static func clampedLimit(_ limit: Int) -> Int {
        min(max(1, limit), maxLimit)
    }

    /// The range of `count` items this page covers (empty past the end); never overflows.
    package func range(in count: Int) -> Range<Int> {
        let start = min(offset, max(0, count))
        return start..<(start + min(limit, max(0, count) - start))
    }
}
