import GRDB

/// The durable analytics queue table, in the core `engage` namespace.
///
/// Times are stored as seconds since 1970 (`REAL`) so that due-time comparisons are numeric.
enum QueueSchema {
    static let table = "engage_queue"

    static let migration = StorageMigration("queue-v1") { db in
        try db.execute(sql: """
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

    static let insertSQL = """
        INSERT INTO engage_queue (destination, idempotency_key, payload, created_at, attempts, next_attempt_at)
        VALUES (?, ?, ?, ?, 0, ?)
        ON CONFLICT (idempotency_key) DO NOTHING
        """

    /// The lowest and highest pending ids, each read from one end of the rowid B-tree.
    static let idBoundsSQL = "SELECT (SELECT MIN(id) FROM engage_queue), (SELECT MAX(id) FROM engage_queue)"
}
