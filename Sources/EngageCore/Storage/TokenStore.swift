/// Persistence for a provider's session tokens.
///
/// Implementations save atomically: a crash during `save` leaves either the old pair or the new one.
@_spi(EngageProvider) public protocol TokenStore: Sendable {
    /// The stored token pair, or `nil` if there is none.
    func load() throws -> TokenPair?
    /// Replaces the stored token pair.
    func save(_ tokens: TokenPair) throws
    /// Removes the stored token pair (logout).
    func clear() throws
}

/// Tokens kept in memory only, for tests and apps that never persist sessions.
@_spi(EngageProvider) public final class InMemoryTokenStore: TokenStore {
    private let tokens: Locked<TokenPair?>

    /// A store holding `tokens` initially.
    public init(_ tokens: TokenPair? = nil) {
        self.tokens = Locked(tokens)
    }

    /// The pair held, if any.
    public func load() throws -> TokenPair? {
        tokens.value
    }

    /// Replaces the pair held.
    public func save(_ tokens: TokenPair) throws {
        self.tokens.withLock { $0 = tokens }
    }

    /// Forgets the pair.
    public func clear() throws {
        tokens.withLock { $0 = nil }
    }
}

/// Tokens stored encrypted in a storage namespace: the pair is JSON-encoded, sealed with AES-GCM (bound
/// to the namespace and key) and written in a single statement, so the database file never contains the
/// token text and a save is atomic.
///
/// ```swift
/// let sealer = try Sealer(store: secretStore, keyName: "engage.storage")
/// let tokens = SealedTokenStore(namespace: try database.namespace("warply", sealer: sealer))
/// ```
@_spi(EngageProvider) public struct SealedTokenStore: TokenStore {
    /// The namespace holding the tokens; it must have a sealer.
    public let namespace: StorageNamespace
    /// The key-value key of the sealed pair.
    public let key: String

    /// A store of the pair under `key` in `namespace` (which must have a sealer).
    public init(namespace: StorageNamespace, key: String = "tokens") {
        self.namespace = namespace
        self.key = key
    }

    /// The stored pair, opened; throws `.crypto` if it does not open and `.decoding` if it does not decode.
    public func load() throws -> TokenPair? {
        try namespace.sealedValue(TokenPair.self, forKey: key)
    }

    /// Seals and stores `tokens` in one statement, replacing the previous pair.
    public func save(_ tokens: TokenPair) throws {
        try namespace.setSealedValue(tokens, forKey: key)
    }

    /// Removes the stored pair.
    public func clear() throws {
        try namespace.removeValue(forKey: key)
    }
}
