import GRDB

extension EngageDatabase {
    /// Opens the storage namespace `name`, first applying its migrations that have not run yet.
    ///
    /// Each migration runs once per database, in the order given, in its own transaction; it is
    /// recorded as `"<name>/<migration name>"` in GRDB's `grdb_migrations` table, so namespaces never see
    /// each other's migrations. Calling this again with the same (or a longer) list is cheap and
    /// idempotent.
    ///
    /// By convention, a namespace's tables are named with `StorageNamespace.tableName(_:)`
    /// (`"<namespace>_<base>"`).
    ///
    /// - Parameters:
    ///   - name: The namespace, usually the provider id (ProviderID rules).
    ///   - migrations: The namespace's migrations, oldest first; names must be unique.
    ///   - sealer: The sealer for the namespace's sealed values, if it stores any.
    /// - Throws: `EngageError(.invalidInput)` for an invalid or reserved name or bad migration names;
    ///   `EngageError(.storage)` naming the namespace and migration when a migration fails (it is rolled
    ///   back; earlier migrations stay applied).
    public func namespace(
        _ name: String,
        migrations: [StorageMigration] = [],
        sealer: Sealer? = nil
    ) throws -> StorageNamespace {
        try StorageIdentifier.validateNamespace(name)
        if name == Self.coreNamespace, !migrations.isEmpty {
            throw EngageError(
                .invalidInput,
                "The storage namespace '\(name)' is reserved for EngageKit's own tables and takes no migrations.",
                recoverySuggestion: "Use the provider's id as its namespace."
            )
        }
        try applyMigrations(migrations, namespace: name)
        return StorageNamespace(name: name, writer: writer, sealer: sealer, clock: clock)
    }

    /// The migrations of `namespace` recorded as applied in this database, by name, in the order given.
    public func appliedMigrations(namespace: String) throws -> [String] {
        try StorageIdentifier.validateNamespace(namespace)
        let prefix = namespace + "/"
        do {
            return try writer.read { db -> [String] in
                guard try db.tableExists("grdb_migrations") else { return [] }
                return try String.fetchAll(
                    db,
                    sql: "SELECT identifier FROM grdb_migrations WHERE substr(identifier, 1, ?) = ? ORDER BY rowid",
                    arguments: [prefix.utf8.count, prefix]
                ).map { String($0.dropFirst(prefix.count)) }
            }
        } catch {
            throw EngageError(
                .storage, "The migrations of storage namespace '\(namespace)' could not be read.",
                underlyingError: error
            )
        }
    }

    /// Applies `migrations` to `namespace` with a GRDB migrator whose identifiers carry the namespace.
    func applyMigrations(_ migrations: [StorageMigration], namespace: String) throws {
        guard !migrations.isEmpty else { return }
        var seen = Set<String>()
        for migration in migrations {
            guard !migration.name.isEmpty, migration.name.count <= 128, !migration.name.contains("/") else {
                throw EngageError(
                    .invalidInput,
                    "Invalid migration name '\(migration.name.prefix(80))' in storage namespace '\(namespace)': "
                        + "use 1 to 128 characters without '/'."
                )
            }
            guard seen.insert(migration.name).inserted else {
                throw EngageError(
                    .invalidInput,
                    "The migration '\(migration.name)' is listed twice in storage namespace '\(namespace)'."
                )
            }
        }

        // The migration that is running, to name it if GRDB fails around it (commit, foreign keys check).
        let running = Locked<String?>(nil)
        var migrator = DatabaseMigrator()
        // Never `eraseDatabaseOnSchemaChange`: other namespaces' migrations are unknown to this migrator.
        // The core's tables have no foreign keys: its migrations run with immediate checks, in a
        // transaction with foreign keys on, without GRDB's deferred mode (foreign keys off, then a
        // `PRAGMA foreign_key_check` of the whole database before each commit). A provider's may
        // rebuild tables that others reference, so they keep the deferred mode.
        let foreignKeyChecks: DatabaseMigrator.ForeignKeyChecks = namespace == Self.coreNamespace ? .immediate : .deferred
        for migration in migrations {
            let apply = migration.apply
            let name = migration.name
            migrator.registerMigration("\(namespace)/\(name)", foreignKeyChecks: foreignKeyChecks) { db in
                running.withLock { $0 = name }
                try apply(db)
            }
        }
        do {
            try migrator.migrate(writer)
        } catch {
            let name = running.value
            let what =
                name.map { "The migration '\($0)' of storage namespace '\(namespace)'" }
                ?? "A migration of storage namespace '\(namespace)'"
            throw EngageError(
                .storage,
                "\(what) failed and was rolled back\(pathSuffix): \(String(describing: error))",
                recoverySuggestion: "Fix the migration; earlier migrations stay applied and it runs again on next open.",
                underlyingError: error
            )
        }
    }
}
