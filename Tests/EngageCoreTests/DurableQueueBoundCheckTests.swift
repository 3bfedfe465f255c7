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

    @Test("the pending bytes stay the sum of the queued payloads: batches, single events, a repeated key, drops and a purge")
    func pendingBytesStayExact() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let drops = DropRecorder()
        let queue = makeQueue(database: database, policy: DurableQueuePolicy(maxPendingEvents: 5), drops: drops)
        func counted() async throws -> (kept: Int64, summed: Int64) {
            try await database.writer.read { db in
                let kept = try Int64.fetchOne(db, sql: "SELECT bytes FROM engage_queue_size WHERE id = 1") ?? -1
                let summed = try Int64.fetchOne(db, sql: "SELECT IFNULL(SUM(length(payload)), 0) FROM engage_queue") ?? -1
                return (kept, summed)
            }
        }
        _ = try await queue.enqueue(contentsOf: [payload("{\"a\":1}"), payload("{\"bb\":22}")], destination: "bytes.events")
        #expect(try await counted() == (16, 16))
        _ = try await queue.enqueue(payload("{}"), destination: "bytes.events", idempotencyKey: "same")
        _ = try await queue.enqueue(payload("{\"again\":true}"), destination: "bytes.events", idempotencyKey: "same")
        #expect(try await counted() == (18, 18), "a key queued before adds nothing")
        _ = try await queue.enqueue(contentsOf: (0..<4).map { payload("{\"n\":\($0)}") }, destination: "bytes.events")
        #expect(drops.all.map(\.count).reduce(0, +) == 2, "two of the oldest dropped to keep five")
        let afterDrops = try await counted()
        #expect(afterDrops.kept == afterDrops.summed && afterDrops.summed > 0)
        _ = try await queue.purge()
        #expect(try await counted() == (0, 0))
    }
}
