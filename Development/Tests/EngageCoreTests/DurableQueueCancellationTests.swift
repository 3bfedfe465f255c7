@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import EngageTestTraits
import Testing

/// A deliverer whose request never answers: it returns only when its task is cancelled (as a
/// URLSession request does), and counts both.
final class HangingDeliverer: QueueDelivering {
    private let state = Locked((entered: 0, cancelled: 0))

    func deliver(_ batch: [QueuedEvent]) async throws {
        state.withLock { $0.entered += 1 }
        let gate = TestGate()
        await withTaskCancellationHandler {
            await gate.wait()
        } onCancel: {
            gate.open()
        }
        state.withLock { $0.cancelled += 1 }
        throw EngageError(.cancelled, "The request was cancelled.")
    }

    var entered: Int { state.value.entered }
    var cancelled: Int { state.value.cancelled }
}

/// Cancellation reaches a flush, and stopping has a deadline: a background activity that expires, or
/// an app that shuts down, is never held by a server that does not answer.
@Suite("DurableQueue: cancellation and deadlines", .bounded)
struct DurableQueueCancellationTests {
    @Test("cancelling the caller of flush() cancels the request in flight; the event stays queued, uncharged")
    func cancellationReachesTheDeliverer() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let drops = DropRecorder()
        let queue = makeQueue(database: database, drops: drops)
        let hanging = HangingDeliverer()
        try await queue.register(destination: "crobox", deliverer: hanging)
        try await queue.enqueue(payload("a"), destination: "crobox")
        let flush = Task { await queue.flush() }
        try #require(await waitUntil { hanging.entered == 1 })
        flush.cancel()
        try #require(await waitUntil { hanging.cancelled == 1 })
        try #require(await waitUntil { await !queue.isFlushing })
        #expect(try await queue.pendingCount() == 1)
        #expect(drops.all.isEmpty)

        // The next flush sends it, never charged for the abandoned attempt.
        let later = RecordingDeliverer()
        try await queue.register(destination: "crobox", deliverer: later)
        #expect(await queue.flush().delivered == 1)
        #expect(later.batches.first?.map(\.attempts) == [0])
    }

    @Test("a caller joining a running flush cancels it when cancelled")
    func cancellingAJoinedFlush() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let queue = makeQueue(database: database)
        let hanging = HangingDeliverer()
        try await queue.register(destination: "crobox", deliverer: hanging)
        try await queue.enqueue(payload("a"), destination: "crobox")
        let first = Task { await queue.flush() }
        try #require(await waitUntil { hanging.entered == 1 })
        let joined = Task { await queue.flush() }
        try #require(await waitUntil { await queue.flushWaiterCount == 1 })
        joined.cancel()
        try #require(await waitUntil { hanging.cancelled == 1 })
        _ = await first.value
        _ = await joined.value
        #expect(try await queue.pendingCount() == 1)
    }

    @Test("stop(flushFirst:) gives up on a flush that does not end by its deadline; the events stay queued")
    func stopHasADeadline() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let clock = FakeClock()
        let queue = makeQueue(database: database, clock: clock)
        let hanging = HangingDeliverer()
        try await queue.register(destination: "crobox", deliverer: hanging)
        try await queue.enqueue(payload("a"), destination: "crobox")
        let running = Task { await queue.flush() }
        try #require(await waitUntil { hanging.entered == 1 })
        let stopping = Task { await queue.stop(flushFirst: true, deadline: .seconds(3)) }
        try #require(await waitUntil { clock.sleeperCount == 1 })
        clock.advance(by: 2.9)
        #expect(hanging.cancelled == 0)
        clock.advance(by: 0.1)
        #expect(await stopping.value == nil)
        #expect(hanging.cancelled == 1)
        _ = await running.value
        #expect(try await queue.pendingCount() == 1)
        #expect(await queue.isStopped)
    }
}
