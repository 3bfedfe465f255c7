@_spi(EngageProvider) import EngageCore
import Foundation
import GRDB
import Logging

/// Benchmark 3: the durable analytics queue on a file-backed (WAL) `EngageDatabase`.
///
/// (a) `enqueue(contentsOf:destination:)` of `batchSize` ~200-byte payloads against a raw GRDB insert
/// of the same rows into an identical table (same schema and index, a separate database file opened
/// with the same GRDB configuration) in one transaction with a cached prepared statement.
/// (b) single-event `enqueue(_:destination:)` latency.
///
/// Both tables are emptied between measurements so that their size stays bounded.
public final class QueueScenario: Sendable {
    public static let destination = "bench.events"

    public let directory: TemporaryDirectory
    @_spi(EngageProvider) public let database: EngageDatabase
    @_spi(EngageProvider) public let queue: DurableQueue
    /// The raw baseline's database (same GRDB configuration as `EngageDatabase`'s pool).
    public let rawPool: DatabasePool
    /// The payloads of one batch, about `payloadSize` bytes each.
    public let payloads: [Data]
    /// Keys for the raw baseline's rows (the queue makes its own).
    let rawKeys: [String]

    private init(
        directory: TemporaryDirectory, database: EngageDatabase, queue: DurableQueue, rawPool: DatabasePool,
        payloads: [Data], rawKeys: [String]
    ) {
        self.directory = directory
        self.database = database
        self.queue = queue
        self.rawPool = rawPool
        self.payloads = payloads
        self.rawKeys = rawKeys
    }

    public static func make(batchSize: Int = 1000, payloadSize: Int = 200) throws -> QueueScenario {
        let directory = try TemporaryDirectory(label: "queue")
        do {
            let database = try EngageDatabase(location: .directory(directory.path + "/engage"))
            var logger = Logger(label: "engage.bench.queue")
            logger.logLevel = .warning
            let queue = DurableQueue(
                database: database, policy: DurableQueuePolicy(), clock: SystemClock(), random: SystemRandomSource(),
                logger: logger
            )
            var configuration = Configuration()
            configuration.label = "EngageKitBenchRaw"
            configuration.foreignKeysEnabled = true
            configuration.busyMode = .timeout(10)
            let rawPool = try DatabasePool(path: directory.path + "/raw.sqlite", configuration: configuration)
            try rawPool.write { db in
                // Identical to EngageCore's `engage_queue` table and index; the queue's byte-counting
                // triggers are left out, so their cost shows in the ratio.
                try db.execute(
                    sql: """
                        CREATE TABLE raw_queue (
                            id INTEGER PRIMARY KEY AUTOINCREMENT,
                            destination TEXT NOT NULL,
                            idempotency_key TEXT NOT NULL UNIQUE,
                            payload BLOB NOT NULL,
                            created_at REAL NOT NULL,
                            attempts INTEGER NOT NULL DEFAULT 0
                        );
                        CREATE INDEX raw_queue_destination ON raw_queue (destination, id);
                        CREATE TABLE raw_queue_size (id INTEGER PRIMARY KEY CHECK (id = 1), bytes INTEGER NOT NULL);
                        INSERT INTO raw_queue_size (id, bytes) VALUES (1, 0);
                        """)
            }
            return QueueScenario(
                directory: directory, database: database, queue: queue, rawPool: rawPool,
                payloads: (0..<batchSize).map { makePayload(index: $0, size: payloadSize) },
                rawKeys: (0..<batchSize).map { _ in UUID().uuidString }
            )
        } catch {
            directory.remove()
            throw error
        }
    }

    /// A JSON analytics event padded to about `size` bytes.
    static func makePayload(index: Int, size: Int) -> Data {
        let head = #"{"name":"product_view","kind":"view","sku":"SKU-\#(100_000 + index)","session":"3f2a9c","pad":""#
        let tail = #""}"#
        let padding = String(repeating: "x", count: max(0, size - head.utf8.count - tail.utf8.count))
        return Data((head + padding + tail).utf8)
    }

    public var batchSize: Int { payloads.count }

    // MARK: (a) batch

    /// Enqueues the whole batch through the queue (one transaction).
    public func enqueueBatch() async throws {
        let keys = try await queue.enqueue(contentsOf: payloads, destination: Self.destination)
        guard keys.count == payloads.count else { throw BenchFailure("enqueue(contentsOf:) returned \(keys.count) keys") }
    }

    /// Inserts the same rows with raw GRDB in one transaction.
    public func rawInsertBatch() async throws {
        let payloads = self.payloads
        let keys = rawKeys
        let destination = Self.destination
        try await rawPool.write { db in
            let now = Date().timeIntervalSince1970
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO raw_queue (destination, idempotency_key, payload, created_at, attempts)
                    VALUES (?, ?, ?, ?, 0)
                    """)
            for (payload, key) in zip(payloads, keys) {
                statement.setUncheckedArguments([destination, key, payload, now])
                try statement.execute()
            }
        }
    }

    // MARK: (b) single

    /// Enqueues one event.
    public func enqueueOne(_ index: Int) async throws {
        _ = try await queue.enqueue(payloads[index % payloads.count], destination: Self.destination)
    }

    /// Diagnostics: one raw GRDB insert of an event through the async `write` (what `enqueue(_:)` does
    /// besides its key generation and bound check); `countBytesLikeQueue` adds the update of a one-row
    /// byte counter the queue makes in the same transaction (one more page in each commit).
    public func rawInsertOne(_ index: Int, countBytesLikeQueue: Bool, synchronously: Bool = false) async throws {
        let payload = payloads[index % payloads.count]
        let key = UUID().uuidString
        let destination = Self.destination
        let insert = { @Sendable (db: Database) throws in
            let now = Date().timeIntervalSince1970
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO raw_queue (destination, idempotency_key, payload, created_at, attempts)
                    VALUES (?, ?, ?, ?, 0)
                    """)
            statement.setUncheckedArguments([destination, key, payload, now])
            try statement.execute()
            if countBytesLikeQueue {
                try db.cachedStatement(sql: "UPDATE raw_queue_size SET bytes = bytes + ? WHERE id = 1").execute(arguments: [payload.count])
            }
        }
        if synchronously {
            // GRDB's blocking write: runs on this thread when the writer is idle (no thread hand-off).
            try Self.writeBlocking(rawPool, insert)
        } else {
            try await rawPool.write(insert)
        }
    }

    /// GRDB's synchronous `write` (the async overload wins inside async functions).
    static func writeBlocking(_ pool: DatabasePool, _ body: (Database) throws -> Void) throws {
        try pool.write(body)
    }

    // MARK: Bookkeeping

    /// Empties the queue table; returns how many rows it held.
    @discardableResult
    public func clearQueue() async throws -> Int {
        try await database.writer.write { db in
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM engage_queue") ?? 0
            try db.execute(sql: "DELETE FROM engage_queue")
            return count
        }
    }

    /// Empties the raw table; returns how many rows it held.
    @discardableResult
    public func clearRaw() async throws -> Int {
        try await rawPool.write { db in
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM raw_queue") ?? 0
            try db.execute(sql: "DELETE FROM raw_queue")
            return count
        }
    }

    public func close() {
        try? database.close()
        try? rawPool.close()
        directory.remove()
    }
}
