import Foundation
import GRDB
import Logging

extension DurableQueue {
    /// The maximum length of an idempotency key, in characters.
    public static let maximumIdempotencyKeyLength = 256
    /// The largest payload of one event, in bytes (32 KB, as Segment's limit): a bigger one is refused
    /// at enqueue with `.invalidInput`, so one event can never grow a batch past what a backend accepts.
    public static let maximumPayloadBytes = 32 * 1024

    /// Stores one event for `destination` and returns its idempotency key (a new UUID string unless
    /// given). The event is committed when this returns: it survives the app crashing or being killed
    /// from then on (a power loss may undo the last commits; see `EngageDatabase`).
    ///
    /// Enqueueing a key that is already pending does nothing (the first event is kept). While the user
    /// has switched analytics off for the destination's provider (``consent``), nothing is stored and
    /// the key is returned all the same.
    ///
    /// - Throws: `EngageError(.queueFull)` when the queue is full (by count or bytes) under `.rejectNew`;
    ///   `.invalidInput` for a bad destination or key; `.storage` if the database fails.
    ///
    /// It does not hop to the queue's actor: a single event is written synchronously on the calling
    /// task's thread (a sub-millisecond local write), which keeps its latency close to a raw insert.
    @discardableResult
    public nonisolated func enqueue(_ payload: Data, destination: String, idempotencyKey: String? = nil) async throws -> String {
        let key = idempotencyKey ?? IdempotencyKey.make()
        guard !key.isEmpty, key.count <= Self.maximumIdempotencyKeyLength else {
            throw EngageError(
                .invalidInput,
                "Invalid idempotency key: use 1 to \(Self.maximumIdempotencyKeyLength) characters."
            )
        }
        try await insert([payload], keys: [key], destination: destination)
        return key
    }

    /// Stores `payloads` for `destination` in one transaction (all or none) and returns their new
    /// idempotency keys, in order.
    ///
    /// Under `.dropOldest`, if the batch overflows the queue, the oldest events are dropped, which can
    /// include the oldest of this batch when it alone exceeds `maxPendingEvents` or `maxStoredBytes`.
    @discardableResult
    public nonisolated func enqueue(contentsOf payloads: [Data], destination: String) async throws -> [String] {
        let keys = IdempotencyKey.make(count: payloads.count)
        try await insert(payloads, keys: keys, destination: destination)
        return keys
    }

    private nonisolated func insert(_ payloads: [Data], keys: [String], destination: String) async throws {
        try Self.validateDestination(destination)
        guard !payloads.isEmpty else { return }
        if let consent, !consent.allows(destination: destination) {
            // The user switched analytics off: the event is not stored at all.
            logger.debug("Analytics is off: event discarded", metadata: ["destination": "\(destination)", "count": "\(payloads.count)"])
            return
        }
        if let oversized = payloads.firstIndex(where: { $0.count > Self.maximumPayloadBytes }) {
            throw EngageError(
                .invalidInput,
                "An event payload is \(payloads[oversized].count) bytes: one event may hold at most \(Self.maximumPayloadBytes) bytes (32 KB). Nothing was queued.",
                recoverySuggestion: "Send fewer or shorter properties with the event."
            )
        }
        let now = clock.now.timeIntervalSince1970
        let policy = self.policy
        let drops: [QueueDropReport]
        let write = { @Sendable (db: Database) throws -> [QueueDropReport] in
            let statement = try db.cachedStatement(sql: QueueSchema.insertSQL)
            var insertedBytes = 0
            for (payload, key) in zip(payloads, keys) {
                statement.setUncheckedArguments([destination, key, payload, now])
                try statement.execute()
                // 0 when the key was queued before (ON CONFLICT DO NOTHING): its bytes are counted once.
                if db.changesCount > 0 { insertedBytes += payload.count }
            }
            if insertedBytes > 0 {
                try db.cachedStatement(sql: QueueSchema.addBytesSQL).execute(arguments: [insertedBytes])
            }
            return try Self.enforceBound(db, policy: policy, adding: payloads.count, destination: destination)
        }
        do {
            if payloads.count == 1 {
                // A single event is a sub-millisecond local write: doing it on the actor's thread avoids
                // the async write's two thread hops, which would otherwise double its latency.
                drops = try Self.writeNow(writer, write)
            } else {
                drops = try await writer.write(write)
            }
        } catch let error as EngageError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL {
            // Nothing of this enqueue was written (the transaction rolled back); what was stored stays.
            throw EngageError(
                .storage, "The device's storage is full: events for '\(destination)' were not queued; the events queued before are kept.",
                isRetryable: true, recoverySuggestion: "Free some storage; tracking works again once there is room.", underlyingError: error
            )
        } catch {
            throw EngageError(
                .storage, "Events for '\(destination)' could not be stored in the analytics queue.",
                underlyingError: error
            )
        }
        for drop in drops {
            logger.warning(
                "Analytics queue full: dropped the oldest events",
                metadata: ["destination": "\(drop.destination)", "count": "\(drop.count)"]
            )
            onDrop(drop)
        }
        noteEnqueued(payloads.count)
    }

    /// A synchronous write (this function is not async, so the blocking overload is the one chosen).
    private static func writeNow<T>(_ writer: any DatabaseWriter, _ updates: (Database) throws -> T) throws -> T {
        try writer.write(updates)
    }

    /// Applies the drop policy inside the enqueue transaction; throwing rolls the enqueue back.
    private static func enforceBound(
        _ db: Database, policy: DurableQueuePolicy, adding count: Int, destination: String
    ) throws -> [QueueDropReport] {
        // Ids only grow, so MAX - MIN + 1 bounds the row count from above in O(log n): the exact
        // COUNT(*) (a scan) runs only when the queue may really be over its bound. MIN and MAX are
        // separate subqueries: SQLite reads one end of the rowid B-tree for a lone min() or max(), but
        // scans the whole table for `SELECT MIN(id), MAX(id)`. The pending bytes are kept by the
        // enqueue and a trigger on deletion.
        let bounds = try db.cachedStatement(sql: QueueSchema.boundsSQL)
        guard let row = try Row.fetchOne(bounds) else { return [] }
        let bytes = try row.decode(Int64?.self, atIndex: 2) ?? 0
        let byteExcess = bytes - Int64(policy.maxStoredBytes)
        var countExcess = 0
        if let lowest = try row.decode(Int64?.self, atIndex: 0), let highest = try row.decode(Int64?.self, atIndex: 1),
            highest - lowest + 1 > Int64(policy.maxPendingEvents)
        {
            countExcess = (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM engage_queue") ?? 0) - policy.maxPendingEvents
        }
        guard countExcess > 0 || byteExcess > 0 else { return [] }
        switch policy.dropPolicy {
        case .rejectNew:
            let limit = countExcess > 0 ? "\(policy.maxPendingEvents) pending events" : "\(policy.maxStoredBytes) bytes of pending events"
            throw EngageError(
                .queueFull,
                "The analytics queue is full (\(limit)); "
                    + "\(count == 1 ? "the event" : "the \(count) events") for '\(destination)' "
                    + "\(count == 1 ? "was" : "were") not queued.",
                isRetryable: true,
                recoverySuggestion: "Retry after the queue has been flushed, or raise maxPendingEvents and maxStoredBytes."
            )
        case .dropOldest:
            // The oldest events until both bounds hold: at least `countExcess` of them, and as many
            // more as the bytes need (a running sum over the oldest rows, stopped where it suffices).
            let victims = try Row.fetchAll(
                db,
                sql: """
                    SELECT id, destination, idempotency_key FROM (
                        SELECT id, destination, idempotency_key,
                            ROW_NUMBER() OVER (ORDER BY id) AS position,
                            SUM(length(payload)) OVER (ORDER BY id ROWS UNBOUNDED PRECEDING) - length(payload) AS bytes_before
                        FROM engage_queue ORDER BY id
                    ) WHERE position <= ? OR bytes_before < ?
                    """,
                arguments: [countExcess, max(byteExcess, 0)]
            )
            guard let lastID = try victims.last?.decode(Int64.self, forColumn: "id") else { return [] }
            try db.execute(sql: "DELETE FROM engage_queue WHERE id <= ?", arguments: [lastID])
            var order: [String] = []
            var keys: [String: [String]] = [:]
            for row in victims {
                // Dropped either way: a damaged cell only makes the report less precise.
                let destination: String = (try? row.decode(forColumn: "destination")) ?? "unknown"
                if keys[destination] == nil { order.append(destination) }
                if let key: String = try? row.decode(forColumn: "idempotency_key") { keys[destination, default: []].append(key) }
            }
            return order.map { QueueDropReport(destination: $0, reason: .overflow, idempotencyKeys: keys[$0] ?? []) }
        }
    }
}
