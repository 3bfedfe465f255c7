import Crypto
@_spi(EngageProvider) import EngageCore
import Foundation
import GRDB

/// The query cache: raw answers of queries, sealed, in the provider's table `youll_cache`, keyed by a
/// digest of the operation, its variables, the language and the user, and bounded to a byte capacity
/// by evicting the least recently used entries.
///
/// A hit is a read transaction: its use time is kept in memory and written with the next write, before
/// that write evicts anything, so the eviction order is the order of use without a commit per hit.
///
/// An entry is served for `lifetime` after it was stored, then it is a miss. Every invalidation (a
/// mutation, a log-out, a new session) bumps a generation; an answer is written only if the generation
/// it was requested in is still current when the write commits, so an answer in flight across an
/// invalidation is never stored.
///
/// In front of the table, the decoded answers of the latest writes and hits stay in memory
/// (``DecodedAnswers``), so a repeated hit neither reads the database nor decodes: it is a dictionary
/// lookup. They follow the table: removed, emptied and expired with it, and one is kept only when no
/// invalidation came between its read or write and its keeping. (A read that began before an entry
/// was evicted may keep it in memory: it is served until its lifetime ends, as the row would have
/// been.)
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

    /// Entries with a lifetime: when each was stored. Entries of earlier versions read as stored at 0,
    /// so they expire at once.
    static let lifetimeMigration = StorageMigration("cache entry lifetime") { db in
        try db.alter(table: table) { table in
            table.add(column: "stored_at", .double).notNull().defaults(to: 0)
        }
    }

    /// Whose answers an entry holds: a user's, or a guest's.
    enum Owner: Hashable, Sendable {
        case user(String)
        case guest
    }

    let storage: StorageNamespace
    let sealer: Sealer
    let clock: any EngageClock
    let capacityBytes: Int
    /// How long an entry is served after it was stored, in seconds.
    let lifetime: Double
    /// Use times of hits not written yet, by key.
    private let pendingUses = Locked<[String: Double]>([:])
    private let generationCounter = Locked<UInt64>(0)
    /// Decoded answers, by key.
    private let decoded: Locked<DecodedAnswers>

    /// A stored answer: its bytes, and when it was stored (seconds since 1970).
    struct Hit {
        let body: Data
        let storedAt: Double
    }

    init(storage: StorageNamespace, sealer: Sealer, clock: any EngageClock, capacityBytes: Int, lifetime: Double) {
        self.storage = storage
        self.sealer = sealer
        self.clock = clock
        self.capacityBytes = capacityBytes
        self.lifetime = lifetime
        decoded = Locked(DecodedAnswers(budget: min(capacityBytes, DecodedAnswers.maximumBudget)))
    }

    /// The decoded answer kept for `key`, marked as just used; `nil` when none is kept, it is older than
    /// the lifetime, or it is not a `Value`.
    func decodedValue<Value: Sendable>(key: String, as type: Value.Type) -> Value? {
        let now = clock.now.timeIntervalSince1970
        let lifetime = self.lifetime
        let value = decoded.withLock { answers -> Value? in
            guard let entry = answers.use(key) else { return nil }
            guard now - entry.storedAt <= lifetime, let value = entry.value as? Value else {
                answers.remove(key)
                return nil
            }
            return value
        }
        if value != nil { pendingUses.withLock { $0[key] = now } }
        return value
    }

    /// Keeps `value`, the decoded answer stored under `key` at `storedAt` (`size` bytes sealed), unless
    /// the cache was invalidated since `generation`.
    func keepDecoded(_ value: any Sendable, key: String, storedAt: Double, size: Int, generation: UInt64) {
        let generationCounter = self.generationCounter
        decoded.withLock { answers in
            // Checked under the lock that `removeAll()` empties through after bumping the generation.
            guard generationCounter.value == generation else { return }
            answers.insert(DecodedAnswers.Entry(value: value, storedAt: storedAt, size: size), for: key)
        }
    }

    /// The current generation: read it before sending a request whose answer will be written.
    var generation: UInt64 { generationCounter.value }

    /// Makes every answer requested before now unwritable (the cached ones stay).
    func invalidateInFlight() {
        generationCounter.withLock { $0 &+= 1 }
    }

    /// The key of `operation` with `variables` (canonical JSON), for `language` and `owner`.
    static func key(operation: String, variables: Data, language: String, owner: Owner) -> String {
        let ownerPart: String
        switch owner {
        case let .user(id): ownerPart = "u:" + id
        case .guest: ownerPart = "guest"
        }
        var hasher = SHA256()
        for part in [Data(operation.utf8), variables, Data(language.utf8), Data(ownerPart.utf8)] {
            var length = UInt64(part.count).bigEndian
            hasher.update(data: Data(bytes: &length, count: 8))
            hasher.update(data: part)
        }
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in hasher.finalize() {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// The stored answer for `key`, marked as just used; `nil` when there is none, it is older than the
    /// lifetime or it no longer opens (then it is dropped).
    func read(key: String) async throws -> Hit? {
        let entry = try await storage.writer.read { db -> (body: Data?, storedAt: Double?)? in
            guard let row = try Row.fetchOne(db, sql: "SELECT body, stored_at FROM \(Self.table) WHERE key = ?", arguments: [key]) else {
                return nil
            }
            return (row.readableValue("body", as: Data.self), row.readableValue("stored_at", as: Double.self))
        }
        guard let entry else { return nil }
        guard let sealed = entry.body, let storedAt = entry.storedAt, clock.now.timeIntervalSince1970 - storedAt <= lifetime else {
            try? await remove(key: key)
            return nil
        }
        do {
            let body = try sealer.open(sealed, context: Data("youll/cache/\(key)".utf8))
            let now = clock.now.timeIntervalSince1970
            pendingUses.withLock { $0[key] = now }
            return Hit(body: body, storedAt: storedAt)
        } catch {
            try? await remove(key: key)
            return nil
        }
    }

    /// Stores `body` under `key`, and keeps its decoded `value` in memory, unless the cache was
    /// invalidated since `generation` (the answer may be stale, or another user's), then evicts the
    /// least recently used entries beyond the capacity. An answer larger than a quarter of the capacity
    /// is not kept. Returns whether it was stored.
    @discardableResult
    func write(key: String, operation: String, body: Data, value: (any Sendable)? = nil, generation: UInt64) async throws -> Bool {
        let sealed = try sealer.seal(body, context: Data("youll/cache/\(key)".utf8))
        guard sealed.count <= capacityBytes / 4 else { return false }
        let now = clock.now.timeIntervalSince1970
        let capacity = capacityBytes
        let uses = pendingUses.withLock { uses -> [String: Double] in
            defer { uses.removeAll() }
            return uses
        }
        let generationCounter = self.generationCounter
        let evicted = try await storage.writer.write { db -> [String]? in
            // Checked inside the write: an invalidation either came first (nothing is written) or
            // empties the cache after this commit.
            guard generationCounter.value == generation else { return nil }
            for (usedKey, time) in uses {
                try db.execute(sql: "UPDATE \(Self.table) SET accessed_at = MAX(accessed_at, ?) WHERE key = ?", arguments: [time, usedKey])
            }
            try db.execute(
                sql: """
                    INSERT INTO \(Self.table) (key, operation, body, size, accessed_at, stored_at) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT(key) DO UPDATE SET operation = excluded.operation, body = excluded.body,
                        size = excluded.size, accessed_at = excluded.accessed_at, stored_at = excluded.stored_at
                    """,
                arguments: [key, operation, sealed, sealed.count, now, now]
            )
            var total = try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(size), 0) FROM \(Self.table)") ?? 0
            var evicted: [String] = []
            while total > capacity {
                // The least recently used entry goes first; a row whose size cannot be read (a damaged
                // cell) goes too, counted as nothing, so the loop always ends.
                guard
                    let oldest = try Row.fetchOne(db, sql: "SELECT rowid, key, size FROM \(Self.table) ORDER BY accessed_at, key LIMIT 1"),
                    let rowID = oldest.readableValue("rowid", as: Int64.self)
                else { break }
                try db.execute(sql: "DELETE FROM \(Self.table) WHERE rowid = ?", arguments: [rowID])
                total -= oldest.readableValue("size", as: Int.self) ?? 0
                if let evictedKey = oldest.readableValue("key", as: String.self) { evicted.append(evictedKey) }
            }
            return evicted
        }
        guard let evicted else { return false }
        decoded.withLock { answers in
            for evictedKey in evicted { answers.remove(evictedKey) }
        }
        if let value, !evicted.contains(key) {
            keepDecoded(value, key: key, storedAt: now, size: sealed.count, generation: generation)
        }
        return true
    }

    func remove(key: String) async throws {
        pendingUses.withLock { _ = $0.removeValue(forKey: key) }
        decoded.withLock { $0.remove(key) }
        try await storage.writer.write { db in
            try db.execute(sql: "DELETE FROM \(Self.table) WHERE key = ?", arguments: [key])
        }
    }

    /// Empties the cache, and makes every answer in flight unwritable.
    func removeAll() async throws {
        invalidateInFlight()
        pendingUses.withLock { $0.removeAll() }
        decoded.withLock { $0.removeAll() }
        try await storage.writer.write { db in try db.execute(sql: "DELETE FROM \(Self.table)") }
        // Again after the commit: a read that began before it (the row still there) and ends after
        // the first invalidation must not keep what it read in memory.
        invalidateInFlight()
        decoded.withLock { $0.removeAll() }
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

/// The decoded answers a ``YoullCache`` keeps in memory: at most `budget` bytes of the answers' sealed
/// sizes (a stand-in for what the models take), the least recently used dropped first.
struct DecodedAnswers {
    /// The most any cache keeps in memory, in sealed bytes, whatever its capacity on disk.
    static let maximumBudget = 2 * 1024 * 1024

    struct Entry {
        let value: any Sendable
        let storedAt: Double
        let size: Int
        var lastUse: UInt64 = 0
    }

    let budget: Int
    private(set) var entries: [String: Entry] = [:]
    private(set) var bytes = 0
    private var clock: UInt64 = 0

    init(budget: Int) {
        self.budget = budget
    }

    /// The entry for `key`, marked as the most recently used.
    mutating func use(_ key: String) -> Entry? {
        guard var entry = entries[key] else { return nil }
        clock &+= 1
        entry.lastUse = clock
        entries[key] = entry
        return entry
    }

    /// Keeps `entry` under `key` (replacing the one there), then drops the least recently used
    /// entries beyond the budget; an entry larger than the budget is not kept.
    mutating func insert(_ entry: Entry, for key: String) {
        remove(key)
        guard entry.size <= budget else { return }
        var entry = entry
        clock &+= 1
        entry.lastUse = clock
        entries[key] = entry
        bytes += entry.size
        while bytes > budget, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            remove(oldest)
        }
    }

    mutating func remove(_ key: String) {
        if let removed = entries.removeValue(forKey: key) { bytes -= removed.size }
    }

    mutating func removeAll() {
        entries.removeAll()
        bytes = 0
    }
}
