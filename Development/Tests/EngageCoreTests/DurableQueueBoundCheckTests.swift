@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
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
        // Deliveries remove rows of one destination, the newest ones included.
        _ = try await queue.enqueue(contentsOf: [payload("{\"a\":1}"), payload("{\"b\":2}")], destination: "bytes.events")
        _ = try await queue.enqueue(payload("{\"other\":true}"), destination: "bytes.other")
        try await database.writer.write { db in try db.execute(sql: "DELETE FROM engage_queue WHERE destination = 'bytes.other'") }
        #expect(try await counted() == (14, 14), "removing the newest row leaves the bytes of the others")
    }

    @Test(
        "the byte counter stays exact through 600 random enqueues, repeats, drops, deliveries of either destination (the newest rows too) and purges"
    )
    func randomizedSequence() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let queue = makeQueue(database: database, policy: DurableQueuePolicy(maxPendingEvents: 40))
        var random = SeededGenerator(seed: 0x5EED)
        for step in 0..<600 {
            let destination = Bool.random(using: &random) ? "random.a" : "random.b"
            func event() -> Data {
                Data(("{\"p\":\"" + String(repeating: "x", count: Int.random(in: 0...40, using: &random)) + "\"}").utf8)
            }
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<35:
                _ = try await queue.enqueue(
                    contentsOf: (0..<Int.random(in: 1...6, using: &random)).map { _ in event() }, destination: destination)
            case 35..<45: _ = try await queue.enqueue(event(), destination: destination, idempotencyKey: "repeat-\(step % 7)")
            case 45..<75:
                let count = Int.random(in: 1...8, using: &random)
                try await database.writer.write { db in
                    try db.execute(
                        sql: "DELETE FROM engage_queue WHERE id IN (SELECT id FROM engage_queue WHERE destination = ? ORDER BY id LIMIT ?)",
                        arguments: [destination, count])
                }
            case 75..<82:
                try await database.writer.write { db in
                    try db.execute(sql: "DELETE FROM engage_queue WHERE id = (SELECT MAX(id) FROM engage_queue)")
                }
            case 82..<84: _ = try await queue.purge()
            default: _ = try await queue.enqueue(event(), destination: destination)
            }
            let (kept, summed) = try await database.writer.read { db in
                (
                    try Int64.fetchOne(db, sql: "SELECT bytes FROM engage_queue_size WHERE id = 1") ?? -1,
                    try Int64.fetchOne(db, sql: "SELECT IFNULL(SUM(length(payload)), 0) FROM engage_queue") ?? -1
                )
            }
            guard kept == summed else {
                Issue.record("step \(step): the counter says \(kept) bytes, the rows hold \(summed)")
                return
            }
        }
    }
}
