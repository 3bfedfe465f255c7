@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import GRDB
import EngageTestTraits
import Testing

/// NULL where the schema says NOT NULL: what a damaged or hand-edited database file holds. The schema is
/// loosened through `writable_schema` (as damage would), the file reopened, and the cells set to NULL.
@Suite("Damaged storage: NULL cells", .bounded)
struct DamagedStorageNullTests {
    private func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("engage-null-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Rewrites `table`'s schema without `NOT NULL` on `columns`; takes effect when the file is reopened.
    private func dropNotNull(_ database: EngageDatabase, table: String, columns: [String]) async throws {
        try await database.writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA writable_schema = ON")
            for column in columns {
                try db.execute(
                    sql: "UPDATE sqlite_master SET sql = replace(sql, ?, ?) WHERE type = 'table' AND name = ?",
                    arguments: ["\(column) NOT NULL", column, table]
                )
            }
            try db.execute(sql: "PRAGMA writable_schema = OFF")
        }
        try database.close()
    }

    @Test("queued events with a NULL payload or NULL attempts are moved aside and reported; the others are delivered")
    func nullQueueCells() async throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let location = StorageLocation.directory(folder.path)
        let first = try EngageDatabase(location: location)
        let keys = try await makeQueue(database: first).enqueue(
            contentsOf: [payload("a"), payload("b"), payload("c"), payload("d")], destination: "d")
        try await dropNotNull(first, table: "engage_queue", columns: ["payload BLOB", "attempts INTEGER"])

        let database = try EngageDatabase(location: location)
        try await database.writer.write { db in
            try db.execute(sql: "UPDATE engage_queue SET payload = NULL WHERE idempotency_key = ?", arguments: [keys[1]])
            try db.execute(sql: "UPDATE engage_queue SET attempts = NULL WHERE idempotency_key = ?", arguments: [keys[2]])
        }
        let drops = DropRecorder()
        let queue = makeQueue(database: database, drops: drops)
        let deliverer = RecordingDeliverer()
        try await queue.register(destination: "d", deliverer: deliverer)
        let report = await queue.flush()
        #expect(report.delivered == 2)
        #expect(deliverer.payloads == [["a", "d"]])
        #expect(try await queue.pendingCount() == 0)
        #expect(drops.all.allSatisfy { $0.reason == .damaged })
        #expect(Set(drops.all.flatMap(\.idempotencyKeys)) == [keys[1], keys[2]])
        let moved = try await database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM engage_damaged_rows WHERE source_table = 'engage_queue'")
        }
        #expect(moved == 2)
        try database.close()
    }

    @Test("a stored value with a NULL cell is moved aside with a clear error; the namespace's other values stay")
    func nullKeyValueCells() async throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let location = StorageLocation.directory(folder.path)
        let first = try EngageDatabase(location: location)
        let storage = try first.namespace("shop")
        try storage.setData(Data("hello".utf8), forKey: "greeting")
        try storage.setData(Data("kept".utf8), forKey: "other")
        try storage.setData(Data("stamp".utf8), forKey: "stamped")
        try await dropNotNull(first, table: "engage_kv", columns: ["value BLOB", "updated_at REAL"])

        let database = try EngageDatabase(location: location)
        try await database.writer.write { db in
            try db.execute(sql: "UPDATE engage_kv SET value = NULL WHERE namespace = 'shop' AND key = 'greeting'")
            try db.execute(sql: "UPDATE engage_kv SET updated_at = NULL WHERE namespace = 'shop' AND key = 'stamped'")
        }
        let reopened = try database.namespace("shop")
        let error = #expect(throws: EngageError.self) { try reopened.data(forKey: "greeting") }
        #expect(error?.code == .decoding)
        #expect(try reopened.data(forKey: "greeting") == nil)
        #expect(try reopened.data(forKey: "other") == Data("kept".utf8))
        // A NULL in a column the read does not need costs nothing.
        #expect(try reopened.data(forKey: "stamped") == Data("stamp".utf8))
        try reopened.setData(Data("again".utf8), forKey: "greeting")
        #expect(try reopened.data(forKey: "greeting") == Data("again".utf8))
        try database.close()
    }
}
