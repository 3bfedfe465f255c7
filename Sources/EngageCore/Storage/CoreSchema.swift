import GRDB

/// The core's own tables, migrated in the `engage` namespace when an `EngageDatabase` opens.
enum CoreSchema {
    /// Append-only: never edit or reorder a shipped migration.
    static let migrations: [StorageMigration] = [
        KeyValueSchema.migration,
        QueueSchema.migration,
        DamagedRows.migration,
        QueueSchema.destinationsMigration,
        QueueSchema.insertBytesMigration,
    ]
}

/// The key-value table shared by all namespaces, keyed by (namespace, key).
enum KeyValueSchema {
    static let table = "engage_kv"

    static let migration = StorageMigration("kv-v1") { db in
        try db.execute(
            sql: """
                CREATE TABLE engage_kv (
                    namespace TEXT NOT NULL,
                    key TEXT NOT NULL,
                    value BLOB NOT NULL,
                    is_sealed INTEGER NOT NULL,
                    updated_at REAL NOT NULL,
                    PRIMARY KEY (namespace, key)
                ) WITHOUT ROWID
                """)
    }
}
