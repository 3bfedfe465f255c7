import Foundation
import GRDB

/// Rows of the core's tables that cannot be read (a NULL or mistyped cell left by a damaged file, a
/// downgrade or a tool that edited the database) are moved aside into `engage_damaged_rows` instead of
/// crashing the app or blocking its table: the queue and the key-value store read every cell with
/// GRDB's throwing `decode`, and a row that fails is copied there (each cell written with SQLite's
/// `quote()`, so any value survives as text) and removed from its table, then reported.
enum DamagedRows {
    static let table = "engage_damaged_rows"

    /// Append-only in `CoreSchema.migrations`.
    static let migration = StorageMigration("damaged-rows-v1") { db in
        try db.execute(
            sql: """
                CREATE TABLE engage_damaged_rows (
                    id INTEGER PRIMARY KEY,
                    source_table TEXT NOT NULL,
                    moved_at REAL NOT NULL,
                    row_json TEXT NOT NULL
                )
                """)
    }

    /// Copies the rows of `table` selected by `condition` into `engage_damaged_rows` (their `columns`,
    /// quoted) and deletes them from `table`. Returns how many rows moved.
    @discardableResult
    static func moveAside(
        _ db: Database, from table: String, columns: [String], where condition: String, arguments: StatementArguments, at date: Date
    ) throws -> Int {
        let object = columns.map { "'\($0)', quote(\($0))" }.joined(separator: ", ")
        try db.execute(
            sql:
                "INSERT INTO \(Self.table) (source_table, moved_at, row_json) SELECT ?, ?, json_object(\(object)) FROM \(table) WHERE \(condition)",
            arguments: [table, date.timeIntervalSince1970] + arguments
        )
        let moved = db.changesCount
        try db.execute(sql: "DELETE FROM \(table) WHERE \(condition)", arguments: arguments)
        return moved
    }
}

extension Row {
    /// The cell of `column` as a `Value`, or `nil` when the column is missing, NULL or holds something
    /// that is not a `Value` (text in a number column, a blob that is not UTF-8 text). GRDB's own
    /// optional subscript, `row[column] as Value?`, stops the process on such a cell.
    package func readableValue<Value: DatabaseValueConvertible>(_ column: String, as type: Value.Type = Value.self) -> Value? {
        (try? decode(Value?.self, forColumn: column)) ?? nil
    }

    /// The cell at `index` as a `Value`, or `nil` when it is NULL or holds something that is not a
    /// `Value` (see ``readableValue(_:as:)``).
    package func readableValue<Value: DatabaseValueConvertible>(atIndex index: Int, as type: Value.Type = Value.self) -> Value? {
        (try? decode(Value?.self, atIndex: index)) ?? nil
    }
}
