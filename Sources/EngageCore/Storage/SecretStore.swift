import Crypto
import Foundation

/// Where EngageKit keeps its symmetric keys (the key that seals tokens and other sensitive values).
///
/// `key(named:)` creates a random 256-bit key the first time a name is asked for and returns the same
/// key afterwards, across launches for persistent stores. Key names are 1 to 128 ASCII letters, digits,
/// `.`, `-` and `_`.
///
/// Implementations: `KeychainSecretStore` (Apple platforms), `KeyFileSecretStore` (0600 key files),
/// `InMemorySecretStore` (tests), `StaticSecretStore` (a key the app injects). `SecretStores.platformDefault`
/// picks one for the platform.
@_spi(EngageProvider) public protocol SecretStore: Sendable {
    /// The key named `name`, created on first use.
    func key(named name: String) throws -> SymmetricKey
    /// Deletes the key named `name`, if it exists. Values sealed with it can no longer be opened.
    func deleteKey(named name: String) throws
}

/// Factory for the platform's default secret store.
@_spi(EngageProvider) public enum SecretStores {
    /// The default secret store for `location`:
    /// - `.inMemory`: an `InMemorySecretStore`;
    /// - Apple platforms: a `KeychainSecretStore` with service `appID` (in the location's
    ///   `keychainAccessGroup`, for an app group that names one);
    /// - elsewhere: a `KeyFileSecretStore` outside the database directory, so that a copy of the data
    ///   folder never carries the key that opens it: `$XDG_STATE_HOME/<appID>/keys` (or
    ///   `~/.local/state/<appID>/keys`) for `.applicationDefault`, the sibling `<directory>.keys` for
    ///   `.directory`. Keys an earlier version kept in `<database directory>/keys` are moved there.
    ///
    /// `environment` resolves `.applicationDefault` on Linux, as in `StorageLocation.resolvedDirectory`.
    ///
    /// - Throws: `EngageError(.invalidConfiguration)` for an invalid `appID` or location.
    public static func platformDefault(
        appID: String,
        location: StorageLocation,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> any SecretStore {
        try StorageLocation.validateAppID(appID)
        if location == .inMemory {
            return InMemorySecretStore()
        }
        #if canImport(Security)
            return KeychainSecretStore(service: appID, accessGroup: location.keychainAccessGroup)
        #else
            guard let directory = try location.resolvedDirectory(environment: environment),
                let keys = try location.keyDirectory(environment: environment)
            else {
                return InMemorySecretStore()
            }
            return try KeyFileSecretStore(directory: keys, legacyDirectory: directory + "/keys")
        #endif
    }

    static func validateName(_ name: String) throws {
        guard StorageIdentifier.isValidSimpleName(name) else {
            throw EngageError(
                .invalidInput,
                "Invalid secret key name '\(name.prefix(80))': use 1 to 128 letters, digits, '.', '-' or '_', "
                    + "without '..'."
            )
        }
    }
}

/// Keys held in memory only: each name gets a random key for the life of the store. For tests.
@_spi(EngageProvider) public final class InMemorySecretStore: SecretStore {
    private let keys = Locked<[String: SymmetricKey]>([:])

    /// An empty store.
    public init() {}

    /// The key named `name`, random and created on first use, kept for the life of the store.
    public func key(named name: String) throws -> SymmetricKey {
        try SecretStores.validateName(name)
        return keys.withLock { keys in
            if let key = keys[name] { return key }
            let key = SymmetricKey(size: .bits256)
            keys[name] = key
            return key
        }
    }

    /// Forgets the key named `name`.
    public func deleteKey(named name: String) throws {
        try SecretStores.validateName(name)
        keys.withLock { _ = $0.removeValue(forKey: name) }
    }
}

/// One key, provided by the app (for example from its own key management), returned for every name.
///
/// `deleteKey(named:)` does nothing: the app owns the key.
@_spi(EngageProvider) public struct StaticSecretStore: SecretStore {
    private let key: SymmetricKey

    /// A store that always returns `key`, which must be 256 bits long.
    ///
    /// - Throws: `EngageError(.crypto)` for a key of another size.
    public init(key: SymmetricKey) throws {
        guard key.bitCount == 256 else {
            throw EngageError(.crypto, "A secret store key must be 256 bits long, not \(key.bitCount).")
        }
        self.key = key
    }

    /// The injected key, whatever the (valid) name.
    public func key(named name: String) throws -> SymmetricKey {
        try SecretStores.validateName(name)
        return key
    }

    /// Does nothing (the app owns the key) beyond validating `name`.
    public func deleteKey(named name: String) throws {
        try SecretStores.validateName(name)
    }
}
