/// Where a query's answer comes from: the network, the provider's cache, or both. These are the four
/// policies of the Youll SDK (Apollo's names without `Completely`).
public enum YoullCachePolicy: String, Codable, Sendable, CaseIterable {
    /// Always asks the backend; the answer is stored for later cached reads. The default.
    case fetchIgnoringCache
    /// Delivers the cached answer at once, if there is one, then the backend's answer: the callback
    /// form is called twice, `YoullProvider.responses(_:)` yields twice, and the `async` form returns the
    /// backend's answer.
    case returnCacheDataAndFetch
    /// The cached answer when there is one, otherwise the backend's.
    case returnCacheDataElseFetch
    /// Only the cached answer; without one the call fails with `.youllNotCached` and sends nothing.
    case returnCacheDataDontFetch
}

/// An answer and where it came from.
public struct YoullResponse<Value: Sendable>: Sendable {
    /// The answer.
    public var value: Value
    /// Whether it was read from the cache (`false`: it came from the backend just now).
    public var isFromCache: Bool
}
