@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import GRDB
import EngageTestTraits
import Testing

@Suite("DurableQueue: enqueue and flush", .bounded)
struct DurableQueueTests {
    @Test func enqueueThenFlushDeliversInOrderAndDeletes() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let queue = makeQueue(database: database)
        let deliverer = RecordingDeliverer()
        try await queue.register(destination: "crobox", deliverer: deliverer)
        for index in 1...3 { try await queue.enqueue(payload("e\(index)"), destination: "crobox") }
        #expect(try await queue.pendingCount(destination: "crobox") == 3)

        let report = await queue.flush()
        #expect(report.delivered == 3)
        #expect(report.retried == 0 && report.dropped == 0 && report.remaining == 0)
        #expect(report.failures.isEmpty)
        #expect(deliverer.payloads == [["e1", "e2", "e3"]])
        #expect(deliverer.batches[0].allSatisfy { $0.destination == "crobox" && $0.attempts == 0 })
        #expect(try await queue.pendingCount() == 0)

        let second = await queue.flush()
        #expect(second.delivered == 0)
        #expect(deliverer.callCount == 1)
    }

    @Test func batchesRespectBatchSize() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let queue = makeQueue(database: database, policy: DurableQueuePolicy(batchSize: 2))
        let deliverer = RecordingDeliverer()
        try await queue.register(destination: "crobox", deliverer: deliverer)
        try await queue.enqueue(contentsOf: (1...5).map { payload("e\($0)") }, destination: "crobox")

        let report = await queue.flush()
        #expect(report.delivered == 5)
        #expect(deliverer.payloads == [["e1", "e2"], ["e3", "e4"], ["e5"]])
    }

    @Test func destinationsAreSeparateAndFlushCanTargetOne() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let queue = makeQueue(database: database)
        let crobox = RecordingDeliverer()
        let warply = RecordingDeliverer()
        try await queue.register(destination: "crobox", deliverer: crobox)
        try await queue.register(destination: "warply.analytics", deliverer: warply)
        try await queue.enqueue(payload("c1"), destination: "crobox")
        try await queue.enqueue(payload("w1"), destination: "warply.analytics")
        try await queue.enqueue(payload("c2"), destination: "crobox")

        let report = await queue.flush(destination: "warply.analytics")
        #expect(report.delivered == 1)
        #expect(report.remaining == 0)
        #expect(warply.payloads == [["w1"]])
        #expect(crobox.callCount == 0)
        #expect(try await queue.pendingCount() == 2)

        await queue.flush()
        #expect(crobox.payloads == [["c1", "c2"]])
        #expect(warply.callCount == 1)
    }

    @Test func eventsOfAnUnregisteredDestinationWait() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let queue = makeQueue(database: database)
        try await queue.enqueue(payload("x"), destination: "youll")
        let report = await queue.flush()
        #expect(report.delivered == 0)
        #expect(report.remaining == 1)
        let deliverer = RecordingDeliverer()
        try await queue.register(destination: "youll", deliverer: deliverer)
        #expect(await queue.flush().delivered == 1)
        await queue.unregister(destination: "youll")
        try await queue.enqueue(payload("y"), destination: "youll")
        #expect(await queue.flush().remaining == 1)
        #expect(deliverer.callCount == 1)
    }

    @Test func idempotencyKeysAreUniqueGivenOrGenerated() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let queue = makeQueue(database: database)
        let keys = try await queue.enqueue(contentsOf: (0..<100).map { payload("\($0)") }, destination: "crobox")
        #expect(keys.count == 100)
        #expect(Set(keys).count == 100)
        for key in keys {
            // Random (version 4, RFC 4122 variant) UUIDs.
            #expect(UUID(uuidString: key) != nil)
            let characters = Array(key)
            #expect(characters.count == 36 && characters[14] == "4" && "89AB".contains(characters[19]), "\(key)")
        }
        let given = try await queue.enqueue(payload("mine"), destination: "crobox", idempotencyKey: "order-42-viewed")
        #expect(given == "order-42-viewed")
        // The same key again is not queued twice.
        try await queue.enqueue(payload("duplicate"), destination: "crobox", idempotencyKey: "order-42-viewed")
        #expect(try await queue.pendingCount() == 101)

        let deliverer = RecordingDeliverer()
        try await queue.register(destination: "crobox", deliverer: deliverer)
        await queue.flush()
        let delivered = deliverer.batches.flatMap { $0 }
        #expect(delivered.map(\.idempotencyKey) == keys + ["order-42-viewed"])
        #expect(delivered.last?.payload == payload("mine"))
    }

    @Test func invalidInputIsRefusedAndNothingIsStored() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let queue = makeQueue(database: database)
        for destination in ["", "has space", "a/b", String(repeating: "d", count: 129)] {
            await expectEngageError(.invalidInput) { try await queue.enqueue(payload("x"), destination: destination) }
            await expectEngageError(.invalidInput) {
                try await queue.register(destination: destination, deliverer: RecordingDeliverer())
            }
        }
        await expectEngageError(.invalidInput) {
            try await queue.enqueue(payload("x"), destination: "crobox", idempotencyKey: "")
        }
        await expectEngageError(.invalidInput) {
            try await queue.enqueue(payload("x"), destination: "crobox", idempotencyKey: String(repeating: "k", count: 257))
        }
        #expect(try await queue.enqueue(contentsOf: [], destination: "crobox") == [])
        #expect(try await queue.pendingCount() == 0)
    }

    @Test func storedRowsCarryTheirMetadata() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let clock = FakeClock()
        let queue = makeQueue(database: database, clock: clock)
        try await queue.enqueue(payload("x"), destination: "crobox", idempotencyKey: "k1")
        let deliverer = RecordingDeliverer()
        try await queue.register(destination: "crobox", deliverer: deliverer)
        await queue.flush()
        let event = try #require(deliverer.batches.first?.first)
        #expect(event.createdAt == clock.now)
        #expect(event.idempotencyKey == "k1")
        #expect(event.payload == payload("x"))
        #expect(event.id > 0)
    }

    @Test func queueSchemaHasTheDestinationIndex() throws {
        let database = try EngageDatabase(location: .inMemory)
        let columns = try database.writer.read { db in
            try db.indexes(on: "engage_queue").first { $0.name == "engage_queue_destination" }?.columns
        }
        #expect(columns == ["destination", "id"])
    }
}

@Suite("DurableQueue: bounds", .bounded)
struct DurableQueueBoundTests {
    @Test func dropOldestKeepsTheNewestAndReports() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let drops = DropRecorder()
        let queue = makeQueue(database: database, policy: DurableQueuePolicy(maxPendingEvents: 3), drops: drops)
        var keys: [String] = []
        for index in 1...3 { keys.append(try await queue.enqueue(payload("e\(index)"), destination: "crobox")) }
        #expect(drops.all.isEmpty)
        keys.append(try await queue.enqueue(payload("w1"), destination: "warply"))
        keys.append(try await queue.enqueue(payload("e5"), destination: "crobox"))
        #expect(try await queue.pendingCount() == 3)
        #expect(drops.all.map(\.reason) == [.overflow, .overflow])
        #expect(drops.all.map(\.idempotencyKeys) == [[keys[0]], [keys[1]]])
        #expect(drops.all.allSatisfy { $0.destination == "crobox" && $0.count == 1 })

        let crobox = RecordingDeliverer()
        let warply = RecordingDeliverer()
        try await queue.register(destination: "crobox", deliverer: crobox)
        try await queue.register(destination: "warply", deliverer: warply)
        await queue.flush()
        #expect(crobox.payloads == [["e3", "e5"]])
        #expect(warply.payloads == [["w1"]])
    }

    @Test func dropOldestWithAnOversizedBatchKeepsItsNewestEvents() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let drops = DropRecorder()
        let queue = makeQueue(database: database, policy: DurableQueuePolicy(maxPendingEvents: 3), drops: drops)
        try await queue.enqueue(payload("old"), destination: "crobox")
        let keys = try await queue.enqueue(contentsOf: (1...4).map { payload("b\($0)") }, destination: "crobox")
        #expect(try await queue.pendingCount() == 3)
        #expect(drops.all.count == 1)
        #expect(drops.all.first?.count == 2)
        #expect(drops.all.first?.idempotencyKeys.last == keys[0])
        let deliverer = RecordingDeliverer()
        try await queue.register(destination: "crobox", deliverer: deliverer)
        await queue.flush()
        #expect(deliverer.payloads == [["b2", "b3", "b4"]])
    }

    @Test func rejectNewThrowsQueueFullAndKeepsTheQueue() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let drops = DropRecorder()
        let queue = makeQueue(
            database: database, policy: DurableQueuePolicy(maxPendingEvents: 3, dropPolicy: .rejectNew), drops: drops
        )
        try await queue.enqueue(contentsOf: [payload("a"), payload("b")], destination: "crobox")
        // A batch that does not fit is refused as a whole.
        let error = await expectEngageError(.queueFull) {
            try await queue.enqueue(contentsOf: [payload("c"), payload("d")], destination: "crobox")
        }
        #expect(error?.isRetryable == true)
        #expect(try await queue.pendingCount() == 2)
        try await queue.enqueue(payload("c"), destination: "crobox")
        await expectEngageError(.queueFull) { try await queue.enqueue(payload("d"), destination: "crobox") }
        #expect(try await queue.pendingCount() == 3)
        #expect(drops.all.isEmpty)

        let deliverer = RecordingDeliverer()
        try await queue.register(destination: "crobox", deliverer: deliverer)
        await queue.flush()
        #expect(deliverer.payloads == [["a", "b", "c"]])
        try await queue.enqueue(payload("d"), destination: "crobox")
        #expect(try await queue.pendingCount() == 1)
    }
}
