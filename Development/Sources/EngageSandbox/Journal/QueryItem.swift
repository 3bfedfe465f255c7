/// A decoded query item: `name=value` from the query string.
public struct QueryItem: Sendable, Hashable, Codable {
    /// The decoded name.
    public var name: String
    /// The decoded value; empty when the item had no `=`.
    public var value: String

    /// Creates a query item.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// Looks query items up by name: `entry.query["page"]` is the first value named `page`.
public struct QueryLookup: Sendable, Hashable {
    /// All items in order.
    public var items: [QueryItem]

    /// A lookup over `items`.
    public init(items: [QueryItem]) {
        self.items = items
    }

    /// The first value of the item named `name`, or `nil`.
    public subscript(name: String) -> String? {
        items.first { $0.name == name }?.value
    }

    /// Every value of the items named `name`, in order.
    public func values(_ name: String) -> [String] {
        items.filter { $0.name == name }.map(\.value)
    }
}

/// A header field as received.
public struct HeaderField: Sendable, Hashable, Codable {
    /// The field name as sent by the client.
    public var name: String
    /// The field value.
    public var value: String

    /// Creates a header field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
