import Foundation
import GRDB

/// One namespace of an `EngageDatabase`: a provider's (or the core's) slice of storage.
///
/// It offers key-value access (plain, `Codable` and sealed values) in the core `engage_kv` table, and
/// the GRDB `writer` for the namespace's own tables, which by convention are named with
/// `tableName(_:)` and created by the namespace's `StorageMigration`s.
///
/// Key-value calls are synchronous: they are short single-row statements. From async code that must
/// not block, use `writer` with GRDB's `async` `read`/`write`.
@_spi(EngageProvider) public struct StorageNamespace: Sendable {
    /// The namespace name (ProviderID rules).
    public let name: String
    /// The GRDB writer of the whole database.
    public let writer: any DatabaseWriter
    /// The sealer for sealed values, if the namespace has one.
    public let sealer: Sealer?
    let clock: any EngageClock

    init(name: String, writer: any DatabaseWriter, sealer: Sealer?, clock: any EngageClock) {
        self.name = name
        self.writer = writer
        self.sealer = sealer
        self.clock = clock
    }

    /// The conventional name of one of the namespace's tables: `"<namespace>_<base>"`.
    ///
    /// For namespace `warply`, `tableName("coupons")` is `"warply_coupons"`. Use it in migrations and
    /// queries so that providers never collide on table names.
    public func tableName(_ base: String) -> String {
        "\(name)_\(base)"
    }

    /// A copy of this namespace that seals with `sealer`.
    public func withSealer(_ sealer: Sealer) -> StorageNamespace {
        StorageNamespace(name: name, writer: writer, sealer: sealer, clock: clock)
    }

    /// The maximum length of a key, in characters.
    public static let maximumKeyLength = 256

    func validateKey(_ key: String) throws {
        guard !key.isEmpty, key.count <= Self.maximumKeyLength, !key.contains("\0") else {
            throw EngageError(
                .invalidInput,
                "Invalid storage key '\(key.prefix(80))' in namespace '\(name)': keys have 1 to "
                    + "\(Self.maximumKeyLength) characters and no NUL."
            )
        }
    }

    func storageError(_ action: String, key: String?, _ error: any Error) -> EngageError {
        if let engageError = error as? EngageError { return engageError }
        let target = key.map { "the value for key '\($0)' in namespace '\(name)'" } ?? "the values of namespace '\(name)'"
        return EngageError(.storage, "Storage failed to \(action) \(target).", underlyingError: error)
    }
}
