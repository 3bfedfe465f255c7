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
public struct PageRequest: Codable, Sendable, Hashable {
    /// Zero-based index of the first item wanted (at least 0).
    public var offset: Int
    /// How many items are wanted (1 to 1000; 100 by default).
    public var limit: Int

    /// A request for `limit` items from `offset`; values are clamped to `offset >= 0` and `1...1000`.
    public init(offset: Int = 0, limit: Int = 100) {
        self.offset = max(0, offset)
        self.limit = min(max(1, limit), 1000)
    }
}
