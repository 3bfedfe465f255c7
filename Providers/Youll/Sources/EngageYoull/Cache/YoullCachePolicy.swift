/// Where a query's answer comes from: the network, the provider's cache, or both. They are the four
/// policies of the Youll SDK (Apollo's `fetchIgnoringCacheCompletely`, its default,
/// `returnCacheDataAndFetch`, `returnCacheDataElseFetch` and `returnCacheDataDontFetch`), named for what
/// they do.
///
/// In JSON (`defaultCachePolicy`) the names are these cases' and, for configurations written before
/// the rename, the former ones (`fetchIgnoringCache`, `returnCacheDataAndFetch`…).
public enum YoullCachePolicy: String, Codable, Sendable, CaseIterable {
    /// Always asks the backend; the answer is stored for later cached reads. The default.
    case networkOnly
    /// Delivers the cached answer at once, if there is one, then the backend's answer: the callback
    /// form is called twice, `YoullProvider.responses(_:)` yields twice, and the `async` form returns the
    /// backend's answer.
    case cacheThenNetwork
    /// The cached answer when there is one, otherwise the backend's.
    case cacheFirst
    /// Only the cached answer; without one the call fails with `.youllNotCached` and sends nothing.
    case cacheOnly

    /// The former names, as configurations written before the rename have them.
    private static let formerNames: [String: Self] = [
        "fetchIgnoringCache": .networkOnly, "returnCacheDataAndFetch": .cacheThenNetwork,
        "returnCacheDataElseFetch": .cacheFirst, "returnCacheDataDontFetch": .cacheOnly,
    ]

    /// Decodes a policy by its name or its former name; any other text is a `DecodingError` that
    /// lists the names.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let policy = Self(rawValue: name) ?? Self.formerNames[name] else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription:
                    "'\(name.prefix(64))' is not a cache policy: use networkOnly, cacheThenNetwork, cacheFirst or cacheOnly."
            )
        }
        self = policy
    }

    /// ``networkOnly``'s former name.
    @available(*, deprecated, renamed: "networkOnly")
    public static var fetchIgnoringCache: Self { .networkOnly }
    /// ``cacheThenNetwork``'s former name.
    @available(*, deprecated, renamed: "cacheThenNetwork")
    public static var returnCacheDataAndFetch: Self { .cacheThenNetwork }
    /// ``cacheFirst``'s former name.
    @available(*, deprecated, renamed: "cacheFirst")
    public static var returnCacheDataElseFetch: Self { .cacheFirst }
    /// ``cacheOnly``'s former name.
    @available(*, deprecated, renamed: "cacheOnly")
    public static var returnCacheDataDontFetch: Self { .cacheOnly }
}

/// An answer and where it came from.
public struct YoullResponse<Value: Sendable>: Sendable {
    /// The answer.
    public var value: Value
    /// Whether it was read from the cache (`false`: it came from the backend just now).
    public var isFromCache: Bool
}
