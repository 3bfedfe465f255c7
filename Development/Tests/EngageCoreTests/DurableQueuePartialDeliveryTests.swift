@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import GRDB
import EngageTestTraits
import Testing

@Suite("DurableQueue partial delivery", .bounded)
struct DurableQueuePartialDeliveryTests {
    @Test("events delivered before a failure half-way through a batch are never sent again")
    func partialDelivery() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let clock = FakeClock()
        let queue = makeQueue(database: database, policy: DurableQueuePolicy(batchSize: 10), clock: clock)
        let deliverer = RecordingDeliverer { call, batch in
            // The first call sends two events, then the network fails.
            if call == 0 {
                throw PartialDeliveryError(deliveredIDs: Set(batch.prefix(2).map(\.id)), failure: retryableFailure)
            }
        }
        try await queue.register(destination: "one-by-one", deliverer: deliverer)
        _ = try await queue.enqueue(contentsOf: (0..<5).map { payload("e\($0)") }, destination: "one-by-one")

        let first = await queue.flush()
        #expect(first.delivered == 2)
        #expect(first.retried == 3)
        #expect(try await queue.pendingCount() == 3)

        clock.advance(by: .seconds(3600))
        let second = await queue.flush()
        #expect(second.delivered == 3)
        #expect(deliverer.payloads == [["e0", "e1", "e2", "e3", "e4"], ["e2", "e3", "e4"]])
        #expect(try await queue.pendingCount() == 0)
    }

    @Test("a partial error naming every event counts the batch as delivered")
    func partialNamingAll() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let queue = makeQueue(database: database)
        let deliverer = RecordingDeliverer { _, batch in
            throw PartialDeliveryError(deliveredIDs: Set(batch.map(\.id)), failure: retryableFailure)
        }
        try await queue.register(destination: "all", deliverer: deliverer)
        _ = try await queue.enqueue(contentsOf: [payload("a"), payload("b")], destination: "all")
        let report = await queue.flush()
        #expect(report.delivered == 2)
        #expect(report.retried == 0)
        #expect(try await queue.pendingCount() == 0)
    }

    @Test("an event over 32 KB is refused at enqueue with a clear error, and earlier events stay")
    func oversizedPayload() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let queue = makeQueue(database: database)
        _ = try await queue.enqueue(payload("small"), destination: "d")
        let error = await #expect(throws: EngageError.self) {
            try await queue.enqueue(Data(repeating: 0x61, count: DurableQueue.maximumPayloadBytes + 1), destination: "d")
        }
        #expect(error?.code == .invalidInput)
        #expect(error?.message.contains("32 KB") == true)
        await #expect(throws: EngageError.self) {
            try await queue.enqueue(contentsOf: [payload("ok"), Data(count: 40_000)], destination: "d")
        }
        #expect(try await queue.pendingCount() == 1)
        _ = try await queue.enqueue(Data(repeating: 0x61, count: DurableQueue.maximumPayloadBytes), destination: "d")
        #expect(try await queue.pendingCount() == 2)
    }

    @Test("damaged queue rows (mistyped cells) are moved aside and reported; the readable events are delivered")
    func damagedRowsMovedAside() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let drops = DropRecorder()
        let queue = makeQueue(database: database, drops: drops)
        let deliverer = RecordingDeliverer()
        try await queue.register(destination: "d", deliverer: deliverer)
        let keys = try await queue.enqueue(contentsOf: [payload("a"), payload("b"), payload("c")], destination: "d")
        try await database.writer.write { db in
            try db.execute(sql: "UPDATE engage_queue SET attempts = 'many' WHERE idempotency_key = ?", arguments: [keys[1]])
        }
        let report = await queue.flush()
        #expect(report.delivered == 2)
        #expect(deliverer.payloads == [["a", "c"]])
        #expect(try await queue.pendingCount() == 0)
        #expect(drops.all.map(\.reason) == [.damaged])
        #expect(drops.all.first?.idempotencyKeys == [keys[1]])
        let moved = try await database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM engage_damaged_rows WHERE source_table = 'engage_queue'")
        }
        #expect(moved == 1)
    }

    @Test("the per-provider counts pass over a destination that is not text instead of trapping")
    func countsPassOverDamagedDestinations() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let queue = makeQueue(database: database)
        let keys = try await queue.enqueue(contentsOf: [payload("a"), payload("b"), payload("c")], destination: "alpha.events")
        try await database.writer.write { db in
            try db.execute(sql: "UPDATE engage_queue SET destination = X'FFFE' WHERE idempotency_key = ?", arguments: [keys[1]])
        }
        var counts: [ProviderID: Int]?
        for try await value in queue.pendingCountsByProvider() {
            counts = value
            break
        }
        #expect(counts == ["alpha": 2])
    }

    @Test("a full disk while enqueueing is a clear, retryable storage error; the events stored before stay and are delivered")
    func fullDisk() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let queue = makeQueue(database: database)
        let deliverer = RecordingDeliverer()
        try await queue.register(destination: "d", deliverer: deliverer)
        let pages = try await database.writer.read { db in try Int.fetchOne(db, sql: "PRAGMA page_count") } ?? 0
        try await database.writer.write { db in try db.execute(sql: "PRAGMA max_page_count = \(pages + 8)") }
        var stored = 0
        var failure: EngageError?
        for index in 0..<500 {
            do {
                _ = try await queue.enqueue(Data(repeating: UInt8(index % 256), count: 2_000), destination: "d")
                stored += 1
            } catch let error as EngageError {
                failure = error
                break
            }
        }
        let error = try #require(failure, "the capped database never filled up")
        #expect(error.code == .storage)
        #expect(error.isRetryable)
        #expect(error.message.contains("full"))
        #expect(stored > 0)
        #expect(try await queue.pendingCount() == stored)
        try await database.writer.write { db in try db.execute(sql: "PRAGMA max_page_count = 1073741823") }
        #expect(await queue.flush().delivered == stored)
    }
}
