@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes

/// The OAuth client credentials issued with a login, used for every refresh. Secrets: never printed.
struct WarplyClientCredentials: Codable, Sendable, Equatable, SecretBearing {
    var clientID: String
    var clientSecret: String
    var description: String { "WarplyClientCredentials(<redacted>)" }
}

/// Persists the session sealed in the provider's namespace: the token pair (under `tokens`) and the
/// client credentials (under `client_credentials`). Clearing removes both, so a logout or a rejected
/// refresh leaves nothing behind, and calls `onClear` so the user's in-memory data goes with it.
struct WarplySessionStore: TokenStore {
    static let credentialsKey = "client_credentials"
    let namespace: StorageNamespace
    private let onClear: @Sendable () -> Void
    private var tokens: SealedTokenStore { SealedTokenStore(namespace: namespace, key: "tokens") }

    /// A store in `namespace`; `onClear` runs after every clear (logout, rejected refresh, unreadable session).
    init(namespace: StorageNamespace, onClear: @escaping @Sendable () -> Void = {}) {
        self.namespace = namespace
        self.onClear = onClear
    }

    func load() throws -> TokenPair? { try tokens.load() }

    func save(_ pair: TokenPair) throws { try tokens.save(pair) }

    func clear() throws {
        defer { onClear() }
        try tokens.clear()
        try namespace.removeValue(forKey: Self.credentialsKey)
    }

    func clientCredentials() throws -> WarplyClientCredentials? {
        try namespace.sealedValue(WarplyClientCredentials.self, forKey: Self.credentialsKey)
    }

    func setClientCredentials(_ credentials: WarplyClientCredentials?) throws {
        if let credentials {
            try namespace.setSealedValue(credentials, forKey: Self.credentialsKey)
        } else {
            try namespace.removeValue(forKey: Self.credentialsKey)
        }
    }
}
