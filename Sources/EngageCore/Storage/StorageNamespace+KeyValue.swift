import Foundation
import GRDB

extension StorageNamespace {
    /// The plain value stored under `key`, or `nil`.
    ///
    /// - Throws: `EngageError(.storage)` if the value is sealed (use `sealedData(forKey:)`) or the database
    ///   fails; `.invalidInput` for an invalid key.
    public func data(forKey key: String) throws -> Data? {
        try validateKey(key)
        guard let row = try readRow(forKey: key) else { return nil }
        guard !row.isSealed else {
            throw EngageError(
                .storage,
                "The value for key '\(key)' in namespace '\(name)' is sealed; read it with sealedData(forKey:)."
            )
        }
        return row.value
    }

    /// Stores `data` under `key` in plain form, replacing any value (plain or sealed).
    public func setData(_ data: Data, forKey key: String) throws {
        try validateKey(key)
        try writeRow(data, isSealed: false, forKey: key)
    }

    /// Removes the value under `key`, plain or sealed. Removing a missing key does nothing.
    public func removeValue(forKey key: String) throws {
        try validateKey(key)
        if let batch = StorageBatch.current {
            try batch.stage(.delete(namespace: name, key: key), on: writer)
            return
        }
        do {
            try writer.write { db in
                try db.execute(
                    sql: "DELETE FROM engage_kv WHERE namespace = ? AND key = ?", arguments: [name, key]
                )
            }
        } catch {
            throw storageError("remove", key: key, error)
        }
    }

    /// The keys of this namespace, sorted.
    public func keys() throws -> [String] {
        do {
            return try writer.read { db in
                try String.fetchAll(
                    db, sql: "SELECT key FROM engage_kv WHERE namespace = ? ORDER BY key", arguments: [name]
                )
            }
        } catch {
            throw storageError("list", key: nil, error)
        }
    }

    /// Removes every key-value entry of this namespace (and of no other). Tables are not touched.
    public func removeAll() throws {
        do {
            try writer.write { db in
                try db.execute(sql: "DELETE FROM engage_kv WHERE namespace = ?", arguments: [name])
            }
        } catch {
            throw storageError("remove", key: nil, error)
        }
    }

    /// The `Codable` value stored as JSON under `key`, or `nil`.
    ///
    /// - Throws: `EngageError(.decoding)` if the stored JSON does not decode as `T`.
    public func value<T: Decodable>(_ type: T.Type, forKey key: String) throws -> T? {
        guard let data = try data(forKey: key) else { return nil }
        return try Self.decode(type, from: data, key: key)
    }

    /// Stores `value` as JSON under `key`.
    public func setValue<T: Encodable>(_ value: T, forKey key: String) throws {
        try setData(Self.encode(value, key: key), forKey: key)
    }

    // MARK: - Rows

    struct KeyValueRow {
        var value: Data
        var isSealed: Bool

        /// Decodes a row; throws for a NULL or mistyped cell.
        init(_ row: Row) throws {
            value = try row.decode(forColumn: "value")
            isSealed = try row.decode(forColumn: "is_sealed")
        }
    }

    private static func fetchRow(_ db: Database, namespace: String, key: String) throws -> Row? {
        try Row.fetchOne(db, sql: "SELECT value, is_sealed FROM engage_kv WHERE namespace = ? AND key = ?", arguments: [namespace, key])
    }

    /// The row under `key`. A row that cannot be read (a NULL or mistyped cell) is moved aside into
    /// `engage_damaged_rows` and reported as `.decoding` once; the key then reads as empty.
    func readRow(forKey key: String) throws -> KeyValueRow? {
        let namespace = name
        let row: Row?
        do {
            row = try writer.read { db in try Self.fetchRow(db, namespace: namespace, key: key) }
        } catch {
            throw storageError("read", key: key, error)
        }
        guard let row else { return nil }
        do {
            return try KeyValueRow(row)
        } catch {
            let now = clock.now
            let moved: Bool
            do {
                moved = try writer.write { db -> Bool in
                    // Read again inside the write: a writer may have replaced the row with a good one since.
                    guard let row = try Self.fetchRow(db, namespace: namespace, key: key), (try? KeyValueRow(row)) == nil else {
                        return false
                    }
                    return try DamagedRows.moveAside(
                        db, from: KeyValueSchema.table, columns: ["namespace", "key", "value", "is_sealed", "updated_at"],
                        where: "namespace = ? AND key = ?", arguments: [namespace, key], at: now
                    ) > 0
                }
            } catch {
                throw storageError("move aside the damaged row of", key: key, error)
            }
            // Replaced or removed meanwhile: read what is there now.
            guard moved else { return try readRow(forKey: key) }
            throw EngageError(
                .decoding,
                "The stored value for key '\(key)' in namespace '\(name)' was damaged (a NULL or mistyped cell); it was moved aside to \(DamagedRows.table) and the key now reads as empty.",
                underlyingError: error
            )
        }
    }

    func writeRow(_ value: Data, isSealed: Bool, forKey key: String) throws {
        let namespace = name
        let updatedAt = clock.now.timeIntervalSince1970
        if let batch = StorageBatch.current {
            try batch.stage(.upsert(namespace: namespace, key: key, value: value, isSealed: isSealed, updatedAt: updatedAt), on: writer)
            return
        }
        do {
            try writer.write { db in
                try Self.upsert(db, namespace: namespace, key: key, value: value, isSealed: isSealed, updatedAt: updatedAt)
            }
        } catch {
            throw storageError("write", key: key, error)
        }
    }

    /// Stores `value` under `namespace`/`key` in `db`'s transaction, replacing any row.
    static func upsert(_ db: Database, namespace: String, key: String, value: Data, isSealed: Bool, updatedAt: Double) throws {
        try db.execute(
            sql: """
                INSERT INTO engage_kv (namespace, key, value, is_sealed, updated_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (namespace, key) DO UPDATE SET
                    value = excluded.value, is_sealed = excluded.is_sealed, updated_at = excluded.updated_at
                """,
            arguments: [namespace, key, value, isSealed, updatedAt]
        )
    }

    package static func encode<T: Encodable>(_ value: T, key: String) throws -> Data {
        do {
            // Default strategies: dates round-trip exactly (seconds as a Double).
            return try JSONEncoder().encode(value)
        } catch {
            throw EngageError(
                .encoding, "The value for storage key '\(key)' could not be encoded as JSON.", underlyingError: error
            )
        }
    }

    package static func decode<T: Decodable>(_ type: T.Type, from data: Data, key: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw EngageError(decodingError: error, what: "stored value for key '\(key)'")
        } catch {
            throw EngageError(.decoding, "The stored value for key '\(key)' could not be decoded.", underlyingError: error)
        }
    }
}
