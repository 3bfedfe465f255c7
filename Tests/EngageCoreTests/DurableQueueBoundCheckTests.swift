@_spi(EngageProvider) @testable import EngageCore
import Foundation
import GRDB
import EngageTestTraits
import Testing

@Suite("DurableQueue: the enqueue bound check", .bounded)
struct DurableQueueBoundCheckTests {
    @Test("the bound check reads the two ends of the rowid B-tree and the byte counter, and never scans the queue (each enqueue runs it)")
    func boundCheckDoesNotScan() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let queue = makeQueue(database: database)
        _ = try await queue.enqueue(Data("{}".utf8), destination: "bound.check")
        let plan = try await database.writer.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + QueueSchema.boundsSQL).map { try $0.decode(String.self, forColumn: "detail") }
        }
        #expect(!plan.contains { $0.hasPrefix("SCAN engage_queue") }, "\(plan)")
        #expect(plan.filter { $0 == "SEARCH engage_queue" }.count == 2, "\(plan)")
        #expect(!plan.contains { $0.hasPrefix("SCAN engage_queue_size") }, "\(plan)")
    }
}
