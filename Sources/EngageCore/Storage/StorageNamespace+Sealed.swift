import Foundation
import GRDB
import Logging

extension StorageNamespace {
    /// The sealed value stored under `key`, opened, or `nil`.
    ///
    /// A value that no longer opens reads as `nil`: it was sealed with a key this device no longer has
    /// (the database came back from a backup or another device without its key) or was altered. Such a
    /// row is moved aside into `engage_damaged_rows` and logged once (its key, never its bytes), so one
    /// unreadable value never fails the reads of the others, and a new value can be stored in its place.
    ///
    /// - Throws: `EngageError(.invalidConfiguration)` without a sealer; `.storage` if the stored value is
    ///   plain or the database fails.
    public func sealedData(forKey key: String) throws -> Data? {
        switch try readSealed(forKey: key) {
        case let .opened(data): data
        case .absent, .unreadable: nil
        }
    }

    /// What a sealed read found: for callers that act on a value that was lost (the gift-card vault
    /// fetches a lost card again).
    package enum SealedRead: Sendable {
        /// The value, opened.
        case opened(Data)
        /// Nothing is stored under the key.
        case absent
        /// A value was stored but did not open; it was moved aside, and the key now reads as absent.
        case unreadable(EngageError)
    }

    /// Reads and opens the sealed value under `key`, moving aside a value that does not open (see
    /// ``sealedData(forKey:)``). With `lossRecord`, the record it makes (a key and its JSON, stored
    /// plain) is written in the same transaction as the move: a value is never moved aside without its
    /// record, and a failure to write the record leaves the value where it was. It is called only for a
    /// value that does not open.
    package func readSealed(
        forKey key: String, lossRecord: (() throws -> (key: String, value: Data))? = nil
    ) throws -> SealedRead {
        try validateKey(key)
        let sealer = try requireSealer(for: key)
        guard let row = try readRow(forKey: key) else { return .absent }
        guard row.isSealed else {
            throw EngageError(
                .storage,
                "The value for key '\(key)' in namespace '\(name)' is not sealed; read it with data(forKey:)."
            )
        }
        let failure: EngageError
        do {
            return .opened(try sealer.open(row.value, context: sealingContext(forKey: key)))
        } catch let error as EngageError {
            failure = error
        } catch {
            failure = EngageError(.crypto, "A sealed value could not be opened.", underlyingError: error)
        }
        let record = try lossRecord?()
        if let record { try validateKey(record.key) }
        let namespace = name
        let now = clock.now
        let moved: Bool
        do {
            moved = try writer.write { db -> Bool in
                // Only the bytes that failed: a writer may have stored a good value since.
                let moved =
                    try DamagedRows.moveAside(
                        db, from: KeyValueSchema.table, columns: ["namespace", "key", "value", "is_sealed", "updated_at"],
                        where: "namespace = ? AND key = ? AND value = ?", arguments: [namespace, key, row.value], at: now
                    ) > 0
                if moved, let record {
                    try Self.upsert(
                        db, namespace: namespace, key: record.key, value: record.value, isSealed: false,
                        updatedAt: now.timeIntervalSince1970)
                }
                return moved
            }
        } catch {
            throw storageError("move aside the unreadable sealed value of", key: key, error)
        }
        guard moved else { return try readSealed(forKey: key, lossRecord: lossRecord) }
        Self.logger.warning(
            "A sealed value did not open (sealed with another key, as after a restore, or altered); it was moved aside and reads as absent",
            metadata: ["namespace": "\(namespace)", "key": "\(key)", "table": "\(DamagedRows.table)"]
        )
        return .unreadable(
            EngageError(
                .crypto,
                "The sealed value for key '\(key)' in namespace '\(namespace)' did not open; it was moved aside to \(DamagedRows.table) and the key now reads as absent.",
                underlyingError: failure
            )
        )
    }

    /// Seals `data` and stores it under `key`, replacing any value.
    ///
    /// The seal is bound to this namespace and key: the stored bytes do not open anywhere else.
    public func setSealedData(_ data: Data, forKey key: String) throws {
        try validateKey(key)
        let sealer = try requireSealer(for: key)
        let sealed = try sealer.seal(data, context: sealingContext(forKey: key))
        try writeRow(sealed, isSealed: true, forKey: key)
    }

    /// The `Codable` value stored sealed as JSON under `key`, or `nil`.
    public func sealedValue<T: Decodable>(_ type: T.Type, forKey key: String) throws -> T? {
        guard let data = try sealedData(forKey: key) else { return nil }
        return try Self.decode(type, from: data, key: key)
    }

    /// Encodes `value` as JSON, seals it and stores it under `key`.
    public func setSealedValue<T: Encodable>(_ value: T, forKey key: String) throws {
        try setSealedData(Self.encode(value, key: key), forKey: key)
    }

    /// The authenticated context of a sealed key-value entry: `"engage.kv" NUL namespace NUL key`.
    func sealingContext(forKey key: String) -> Data {
        var context = Data("engage.kv".utf8)
        context.append(0)
        context.append(contentsOf: name.utf8)
        context.append(0)
        context.append(contentsOf: key.utf8)
        return context
    }

    static let logger = Logger(label: "engage.storage")

    private func requireSealer(for key: String) throws -> Sealer {
        guard let sealer else {
            throw EngageError(
                .invalidConfiguration,
                "Storage namespace '\(name)' has no sealer, so the sealed value for key '\(key)' cannot be used.",
                recoverySuggestion: "Open the namespace with a Sealer built from the secret store."
            )
        }
        return sealer
    }
}
