import GRDB

/// The durable analytics queue tables, in the core `engage` namespace.
///
/// Times are stored as seconds since 1970 (`REAL`) so that comparisons are numeric.
///
/// - `engage_queue`: one row per pending event, in enqueue order (`id`).
/// - `engage_queue_destinations`: a destination's back-off, kept across launches: the failed
///   deliveries in a row (`failures`) and the time before which it is not tried (`not_before`, from the
///   back-off or a server's `Retry-After`). A destination without a row is not backing off.
/// - `engage_queue_size`: one row holding the bytes of all pending payloads, kept by the enqueue (one
///   update per batch) and a trigger on deletion, so the byte bound is checked without summing the
///   table.
enum QueueSchema {
    static let table = "engage_queue"
    static let destinationsTable = "engage_queue_destinations"

    static let migration = StorageMigration("queue-v1") { db in
        try db.execute(
            sql: """
                CREATE TABLE engage_queue (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    destination TEXT NOT NULL,
                    idempotency_key TEXT NOT NULL UNIQUE,
                    payload BLOB NOT NULL,
                    created_at REAL NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    next_attempt_at REAL NOT NULL
                );
                CREATE INDEX engage_queue_due ON engage_queue (destination, next_attempt_at, id);
                """)
    }

    /// Back-off moves from each event to its destination (events keep their order, and a failure no
    /// longer counts against an event); the pending bytes are counted by triggers.
    static let destinationsMigration = StorageMigration("queue-v2-destinations") { db in
        try db.execute(
            sql: """
                CREATE TABLE engage_queue_destinations (
                    destination TEXT PRIMARY KEY NOT NULL,
                    failures INTEGER NOT NULL,
                    not_before REAL NOT NULL
                ) WITHOUT ROWID;
                INSERT INTO engage_queue_destinations (destination, failures, not_before)
                    SELECT destination, MAX(attempts), MAX(next_attempt_at) FROM engage_queue
                    WHERE attempts > 0 GROUP BY destination;
                DROP INDEX engage_queue_due;
                ALTER TABLE engage_queue DROP COLUMN next_attempt_at;
                CREATE INDEX engage_queue_destination ON engage_queue (destination, id);
                CREATE TABLE engage_queue_size (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    bytes INTEGER NOT NULL
                );
                INSERT INTO engage_queue_size (id, bytes) SELECT 1, IFNULL(SUM(length(payload)), 0) FROM engage_queue;
                CREATE TRIGGER engage_queue_size_insert AFTER INSERT ON engage_queue BEGIN
                    UPDATE engage_queue_size SET bytes = bytes + IFNULL(length(NEW.payload), 0) WHERE id = 1;
                END;
                CREATE TRIGGER engage_queue_size_delete AFTER DELETE ON engage_queue BEGIN
                    UPDATE engage_queue_size SET bytes = bytes - IFNULL(length(OLD.payload), 0) WHERE id = 1;
                END;
                """)
    }

    /// Inserted bytes are counted by the enqueue itself, once per batch (``addBytesSQL``), instead of
    /// by a trigger per row: for a batch of 1000 events the trigger's 1000 updates of the one size row
    /// were about a third of the enqueue's time. Deletions, which happen in many places, keep their
    /// trigger.
    static let insertBytesMigration = StorageMigration("queue-v3-insert-bytes") { db in
        try db.execute(sql: "DROP TRIGGER engage_queue_size_insert")
    }

    static let insertSQL = """
        INSERT INTO engage_queue (destination, idempotency_key, payload, created_at, attempts)
        VALUES (?, ?, ?, ?, 0)
        ON CONFLICT (idempotency_key) DO NOTHING
        """

    /// Adds the bytes of the payloads an enqueue inserted to the pending bytes. (One statement with
    /// the bound check, `UPDATE … RETURNING`, made a single enqueue slower: 1.21× the raw commit
    /// instead of 1.14×.)
    static let addBytesSQL = "UPDATE engage_queue_size SET bytes = bytes + ? WHERE id = 1"

    /// The lowest and highest pending ids, each read from one end of the rowid B-tree, and the pending
    /// bytes.
    static let boundsSQL = """
        SELECT (SELECT MIN(id) FROM engage_queue), (SELECT MAX(id) FROM engage_queue), (SELECT bytes FROM engage_queue_size WHERE id = 1)
        """
}
