import GRDB

/// One named, append-only schema change of a storage namespace.
///
/// Migrations of a namespace run in the order given, each exactly once per database and each in its
/// own transaction; they are recorded under `"<namespace>/<name>"`, so two namespaces can use the same
/// migration names. Never edit or reorder a migration that has shipped: add a new one.
///
/// ```swift
/// let migrations = [
///     StorageMigration("v1-coupons") { db in
///         try db.create(table: "warply_coupons") { t in
///             t.primaryKey("id", .text)
///             t.column("payload", .blob).notNull()
///         }
///     },
/// ]
/// let storage = try database.namespace("warply", migrations: migrations)
/// ```
@_spi(EngageProvider) public struct StorageMigration: Sendable {
    /// The migration's name, unique within its namespace (1 to 128 characters, no `/`).
    public var name: String
    /// The schema change; it runs inside a transaction that is rolled back if it throws.
    public var apply: @Sendable (Database) throws -> Void

    /// A migration named `name` that runs `apply`.
    public init(_ name: String, apply: @escaping @Sendable (Database) throws -> Void) {
        self.name = name
        self.apply = apply
    }
}
