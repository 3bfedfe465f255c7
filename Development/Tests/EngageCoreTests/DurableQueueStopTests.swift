@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import EngageTestTraits
import Testing

@Suite("DurableQueue: stop", .bounded)
struct DurableQueueStopTests {
    @Test("after stop() no flush starts, explicit or automatic")
    func noFlushAfterStop() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let clock = FakeClock()
        let queue = makeQueue(database: database, policy: DurableQueuePolicy(batchSize: 2, flushInterval: .seconds(30)), clock: clock)
        let deliverer = RecordingDeliverer()
        try await queue.register(destination: "crobox", deliverer: deliverer)
        await queue.startAutomaticFlush()
        await eventually { clock.sleeperCount == 1 }
        await queue.stop()
        #expect(await queue.isStopped)
        try await queue.enqueue(contentsOf: [payload("a"), payload("b")], destination: "crobox")

        let report = await queue.flush()
        #expect(report.delivered == 0)
        #expect(report.failures.isEmpty)
        await queue.startAutomaticFlush()
        await queue.scheduleFlushSoon(after: .zero)
        #expect(await !queue.isAutomaticFlushRunning)
        clock.advance(by: 3600)
        #expect(await queue.flush(destination: "crobox").delivered == 0)
        #expect(deliverer.callCount == 0)
        #expect(try await queue.pendingCount() == 2)
    }

    @Test("stop(flushFirst:) waits for a running flush, then flushes every destination once")
    func finalFlush() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let queue = makeQueue(database: database, policy: DurableQueuePolicy(batchSize: 10))
        let gate = GatedDeliverer()
        let warply = RecordingDeliverer()
        try await queue.register(destination: "crobox", deliverer: gate)
        try await queue.register(destination: "warply", deliverer: warply)
        try await queue.enqueue(payload("c1"), destination: "crobox")
        let running = Task { await queue.flush(destination: "crobox") }
        await eventually { gate.enteredCount == 1 }
        // Only a flush after the running one (which covers crobox alone) can send this.
        try await queue.enqueue(payload("w1"), destination: "warply")
        let stopping = Task { await queue.stop(flushFirst: true) }
        await eventually { await queue.isStopped }
        #expect(warply.callCount == 0)
        gate.release()
        #expect(await running.value.delivered == 1)
        let final = try #require(await stopping.value)
        #expect(final.delivered == 1)
        #expect(warply.payloads == [["w1"]])
        #expect(gate.enteredCount == 1)
        #expect(try await queue.pendingCount() == 0)
        // Stopping again does not flush again.
        try await queue.enqueue(payload("w2"), destination: "warply")
        #expect(await queue.stop(flushFirst: true) == nil)
        #expect(warply.callCount == 1)
    }
}
