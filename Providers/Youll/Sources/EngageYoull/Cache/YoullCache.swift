import Crypto
import EngageCore
import Foundation
import GRDB

/// The query cache: raw answers of queries, sealed, in the provider's table `youll_cache`, keyed by a
/// digest of the operation, its variables, the language and the user, and bounded to a byte capacity
/// by evicting the least recently used entries.
///
/// A hit is a read transaction: its use time is kept in memory and written with the next write, before
/// that write evicts anything, so the eviction order is the order of use without a commit per hit.
final class YoullCache: Sendable {
    static let table = "youll_cache"

    static let migration = StorageMigration("create query cache") { db in
        try db.create(table: table) { table in
            table.primaryKey("key", .text)
            table.column("operation", .text).notNull()
            table.column("body", .blob).notNull()
            table.column("size", .integer).notNull()
            table.column("accessed_at", .double).notNull()
        }
        try db.create(index: "\(table)_accessed_at", on: table, columns: ["accessed_at"])
    }

    let storage: StorageNamespace
    let sealer: Sealer
    let clock: any EngageClock
    let capacityBytes: Int
    /// Use times of hits not written yet, by key.
    private let pendingUses = Locked<[String: Double]>([:])

    init(storage: StorageNamespace, sealer: Sealer, clock: any EngageClock, capacityBytes: Int) {
        self.storage = storage
        self.sealer = sealer
        self.clock = clock
        self.capacityBytes = capacityBytes
    }

    /// The key of `operation` with `variables` (canonical JSON), for `language` and `userID`.
    static func key(operation: String, variables: Data, language: String, userID: String?) -> String {
        var hasher = SHA256()
        for part in [Data(operation.utf8), variables, Data(language.utf8), Data((userID.map { "u:" + $0 } ?? "guest").utf8)] {
            var length = UInt64(part.count).bigEndian
            hasher.update(data: Data(bytes: &length, count: 8))
            hasher.update(data: part)
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// The stored answer for `key`, marked as just used; `nil` when there is none or it no longer opens
    /// (then it is dropped).
    func read(key: String) async throws -> Data? {
        let sealed = try await storage.writer.read { db in
            try Data.fetchOne(db, sql: "SELECT body FROM \(Self.table) WHERE key = ?", arguments: [key])
        }
        guard let sealed else { return nil }
        do {
            let body = try sealer.open(sealed, context: Data("youll/cache/\(key)".utf8))
            let now = clock.now.timeIntervalSince1970
            pendingUses.withLock { $0[key] = now }
            return body
        } catch {
            try? await remove(key: key)
            return nil
        }
    }

    /// Stores `body` under `key`, then evicts the least recently used entries beyond the capacity. An
    /// answer larger than a quarter of the capacity is not kept.
    func write(key: String, operation: String, body: Data) async throws {
        let sealed = try sealer.seal(body, context: Data("youll/cache/\(key)".utf8))
        guard sealed.count <= capacityBytes / 4 else { return }
        let now = clock.now.timeIntervalSince1970
        let capacity = capacityBytes
        let uses = pendingUses.withLock { uses -> [String: Double] in
            defer { uses.removeAll() }
            return uses
        }
        try await storage.writer.write { db in
            for (usedKey, time) in uses {
                try db.execute(sql: "UPDATE \(Self.table) SET accessed_at = MAX(accessed_at, ?) WHERE key = ?", arguments: [time, usedKey])
            }
            try db.execute(
                sql: """
                    INSERT INTO \(Self.table) (key, operation, body, size, accessed_at) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(key) DO UPDATE SET operation = excluded.operation, body = excluded.body,
                        size = excluded.size, accessed_at = excluded.accessed_at
                    """,
                arguments: [key, operation, sealed, sealed.count, now]
            )
            var total = try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(size), 0) FROM \(Self.table)") ?? 0
            while total > capacity {
                guard let (oldest, size) = try Row.fetchOne(db, sql: "SELECT key, size FROM \(Self.table) ORDER BY accessed_at, key LIMIT 1")
                    .flatMap({ row -> (String, Int)? in
                        guard let key = row["key"] as String?, let size = row["size"] as Int? else { return nil }
                        return (key, size)
                    })
                else { break }
                try db.execute(sql: "DELETE FROM \(Self.table) WHERE key = ?", arguments: [oldest])
                total -= size
            }
        }
    }

    func remove(key: String) async throws {
        pendingUses.withLock { _ = $0.removeValue(forKey: key) }
        try await storage.writer.write { db in
            try db.execute(sql: "DELETE FROM \(Self.table) WHERE key = ?", arguments: [key])
        }
    }

    /// Empties the cache.
    func removeAll() async throws {
        pendingUses.withLock { $0.removeAll() }
        try await storage.writer.write { db in try db.execute(sql: "DELETE FROM \(Self.table)") }
    }

    /// How many entries and bytes the cache holds.
    func usage() async throws -> (entries: Int, bytes: Int) {
        try await storage.writer.read { db in
            let entries = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(Self.table)") ?? 0
            let bytes = try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(size), 0) FROM \(Self.table)") ?? 0
            return (entries, bytes)
        }
    }
}
