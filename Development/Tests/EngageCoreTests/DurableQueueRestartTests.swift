@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import EngageTestTraits
import Testing

@Suite("DurableQueue: restart and concurrency", .bounded)
struct DurableQueueRestartTests {
    @Test func pendingEventsSurviveARestartAndAreDeliveredExactlyOnce() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let clock = FakeClock()
        var keys: [String] = []
        do {
            // First "process": enqueue, deliver part of it, then die without flushing the rest.
            let database = try EngageDatabase(location: .directory(directory.path))
            let queue = makeQueue(database: database, policy: DurableQueuePolicy(batchSize: 2), clock: clock)
            keys += try await queue.enqueue(contentsOf: [payload("a"), payload("b")], destination: "crobox")
            let early = RecordingDeliverer()
            try await queue.register(destination: "crobox", deliverer: early)
            await queue.flush()
            #expect(early.payloads == [["a", "b"]])
            await queue.unregister(destination: "crobox")
            keys += try await queue.enqueue(contentsOf: (1...5).map { payload("e\($0)") }, destination: "crobox")
            keys.append(try await queue.enqueue(payload("w"), destination: "warply", idempotencyKey: "w-key"))
            try database.close()
        }

        // Second "process".
        let database = try EngageDatabase(location: .directory(directory.path))
        let queue = makeQueue(database: database, policy: DurableQueuePolicy(batchSize: 2), clock: clock)
        #expect(try await queue.pendingCount() == 6)
        let crobox = RecordingDeliverer()
        let warply = RecordingDeliverer()
        try await queue.register(destination: "crobox", deliverer: crobox)
        try await queue.register(destination: "warply", deliverer: warply)
        let report = await queue.flush()
        #expect(report.delivered == 6)
        #expect(crobox.payloads == [["e1", "e2"], ["e3", "e4"], ["e5"]])
        #expect(crobox.batches.flatMap { $0 }.map(\.idempotencyKey) == Array(keys[2..<7]))
        #expect(warply.batches.flatMap { $0 }.map(\.idempotencyKey) == ["w-key"])

        let again = await queue.flush()
        #expect(again.delivered == 0)
        #expect(crobox.callCount == 3)
        #expect(warply.callCount == 1)
    }

    @Test func retryStateSurvivesARestart() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let clock = FakeClock()
        let key: String
        do {
            let database = try EngageDatabase(location: .directory(directory.path))
            let queue = makeQueue(database: database, clock: clock)
            key = try await queue.enqueue(payload("a"), destination: "crobox")
            try await queue.register(destination: "crobox", deliverer: RecordingDeliverer { _, _ in throw retryableFailure })
            #expect(await queue.flush().retried == 1)
            try database.close()
        }
        let database = try EngageDatabase(location: .directory(directory.path))
        let queue = makeQueue(database: database, clock: clock)
        let deliverer = RecordingDeliverer()
        try await queue.register(destination: "crobox", deliverer: deliverer)
        await queue.flush()
        #expect(deliverer.callCount == 0)  // still backing off (1.5 s)
        clock.advance(by: 1.5)
        await queue.flush()
        #expect(deliverer.batches.first?.map(\.attempts) == [1])
        #expect(deliverer.batches.first?.map(\.idempotencyKey) == [key])
    }

    @Test func concurrentFlushesDoNotDoubleDeliver() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let queue = makeQueue(database: database, policy: DurableQueuePolicy(batchSize: 3))
        let gate = GatedDeliverer()
        let warply = RecordingDeliverer()
        try await queue.register(destination: "crobox", deliverer: gate)
        try await queue.register(destination: "warply", deliverer: warply)
        try await queue.enqueue(contentsOf: (1...7).map { payload("e\($0)") }, destination: "crobox")
        try await queue.enqueue(payload("w1"), destination: "warply")

        let first = Task { await queue.flush(destination: "crobox") }
        await eventually { gate.enteredCount == 1 }
        #expect(await queue.isFlushing)
        // Callers arriving while it runs wait for it (it may have passed their events), then flush.
        let second = Task { await queue.flush(destination: "crobox") }
        let third = Task { await queue.flush() }
        let fourth = Task { await queue.flush(destination: "warply") }
        await eventually { await queue.flushWaiterCount == 3 }
        #expect(gate.enteredCount == 1)
        gate.release()
        let reports = [await first.value, await second.value, await third.value, await fourth.value]

        let delivered = gate.batches.flatMap { $0 }.map { String(decoding: $0.payload, as: UTF8.self) }
        #expect(delivered == (1...7).map { "e\($0)" })
        #expect(warply.payloads == [["w1"]])
        #expect(reports[0].delivered == 7)
        #expect(reports[1].delivered == 0)  // ran after it: nothing left for crobox
        // The other two ran after it: whichever ran first delivered w1 (the other joined it or found nothing).
        #expect(max(reports[2].delivered, reports[3].delivered) == 1)
    }

    @Test("a flush called while another runs delivers what was stored after that one passed its destination")
    func flushDuringFlushDeliversLaterEvents() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let queue = makeQueue(database: database)
        let early = RecordingDeliverer()
        let gate = GatedDeliverer()
        // Flushed in name order: "a-early" first, then "b-gated", which holds the flush.
        try await queue.register(destination: "a-early", deliverer: early)
        try await queue.register(destination: "b-gated", deliverer: gate)
        try await queue.enqueue(payload("b1"), destination: "b-gated")
        let running = Task { await queue.flush() }
        await eventually { gate.enteredCount == 1 }
        // Stored after the running flush passed "a-early"; an app's flush() now must still deliver it.
        try await queue.enqueue(payload("a1"), destination: "a-early")
        let called = Task { await queue.flush() }
        await eventually { await queue.flushWaiterCount == 1 }
        gate.release()
        let report = await called.value
        _ = await running.value
        #expect(early.payloads == [["a1"]])
        #expect(report.delivered == 1)
        #expect(try await queue.pendingCount() == 0)
        #expect(try await queue.pendingCount() == 0)
        #expect(await !queue.isFlushing)
    }

    @Test func manyConcurrentFlushesAndEnqueuesDeliverEachEventOnce() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let database = try EngageDatabase(location: .directory(directory.path))
        let queue = makeQueue(database: database, policy: DurableQueuePolicy(batchSize: 7))
        let deliverer = RecordingDeliverer()
        try await queue.register(destination: "crobox", deliverer: deliverer)
        await withThrowingTaskGroup(of: Void.self) { group in
            for producer in 0..<4 {
                group.addTask {
                    for index in 0..<25 {
                        try await queue.enqueue(payload("\(producer)-\(index)"), destination: "crobox")
                    }
                }
            }
            for _ in 0..<6 {
                group.addTask { await queue.flush() }
            }
        }
        await queue.flush()
        let delivered = deliverer.batches.flatMap { $0 }
        #expect(delivered.count == 100)
        #expect(Set(delivered.map(\.idempotencyKey)).count == 100)
        #expect(Set(delivered.map(\.payload)).count == 100)
        #expect(try await queue.pendingCount() == 0)
    }

    @Test func automaticFlushUsesTheInjectedClock() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let clock = FakeClock()
        let queue = makeQueue(database: database, policy: DurableQueuePolicy(flushInterval: .seconds(30)), clock: clock)
        let deliverer = RecordingDeliverer()
        try await queue.register(destination: "crobox", deliverer: deliverer)
        try await queue.enqueue(payload("a"), destination: "crobox")

        await queue.startAutomaticFlush()
        await queue.startAutomaticFlush()  // idempotent
        #expect(await queue.isAutomaticFlushRunning)
        await eventually { clock.sleeperCount == 1 }
        clock.advance(by: 29)
        try await Task.sleep(for: .milliseconds(20))
        #expect(deliverer.callCount == 0)
        clock.advance(by: 1)
        await eventually { deliverer.callCount == 1 }

        // The loop goes back to sleep; stop() ends it.
        await eventually { clock.sleeperCount == 1 }
        await queue.stop()
        #expect(await !queue.isAutomaticFlushRunning)
        await eventually { clock.sleeperCount == 0 }
        try await queue.enqueue(payload("b"), destination: "crobox")
        clock.advance(by: 60)
        try await Task.sleep(for: .milliseconds(20))
        #expect(deliverer.callCount == 1)
    }

    @Test func aFullBatchSchedulesAFlushSoonWhileAutomatic() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let clock = FakeClock()
        let queue = makeQueue(database: database, policy: DurableQueuePolicy(batchSize: 3), clock: clock)
        let deliverer = RecordingDeliverer()
        try await queue.register(destination: "crobox", deliverer: deliverer)
        await queue.startAutomaticFlush()
        await eventually { clock.sleeperCount == 1 }
        try await queue.enqueue(contentsOf: (1...3).map { payload("e\($0)") }, destination: "crobox")
        try await queue.enqueue(payload("e4"), destination: "crobox")  // merged into the scheduled flush
        // The 30 s loop and the 1 s "soon" flush: the latter's task registers its sleep asynchronously.
        await eventually { clock.sleeperCount == 2 }
        clock.advance(by: 1)
        await eventually { deliverer.callCount == 2 }
        #expect(deliverer.payloads == [["e1", "e2", "e3"], ["e4"]])
        await queue.stop()
    }
}
