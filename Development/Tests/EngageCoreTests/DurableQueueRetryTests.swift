@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import EngageTestTraits
import Testing

@Suite("DurableQueue: retries and drops", .bounded)
struct DurableQueueRetryTests {
    @Test func retryableFailureBacksOffUntilDue() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let clock = FakeClock()
        // base 2 s, jitter fraction 0.5 → factor 0.75: first retry after 1.5 s, second after 3 s.
        let queue = makeQueue(database: database, clock: clock)
        let deliverer = RecordingDeliverer { call, _ in
            if call < 2 { throw retryableFailure }
        }
        try await queue.register(destination: "crobox", deliverer: deliverer)
        let keys = try await queue.enqueue(contentsOf: [payload("a"), payload("b")], destination: "crobox")

        let first = await queue.flush()
        #expect(first.delivered == 0)
        #expect(first.retried == 2)
        #expect(first.remaining == 2)
        #expect(first.failures["crobox"]?.code == .network)

        clock.advance(by: 1.4)
        #expect(await queue.flush().retried == 0)
        #expect(deliverer.callCount == 1)  // not due yet: no attempt

        clock.advance(by: 0.1)
        let second = await queue.flush()
        #expect(second.retried == 2)
        #expect(deliverer.callCount == 2)

        clock.advance(by: 2.9)
        await queue.flush()
        #expect(deliverer.callCount == 2)
        clock.advance(by: 0.1)
        let third = await queue.flush()
        #expect(third.delivered == 2)
        #expect(third.remaining == 0)

        #expect(deliverer.batches.map { $0.map(\.attempts) } == [[0, 0], [1, 1], [2, 2]])
        // The same keys on every attempt.
        #expect(deliverer.batches.allSatisfy { $0.map(\.idempotencyKey) == keys })
    }

    @Test func backOffIsCappedByMaxRetryDelay() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let clock = FakeClock()
        let policy = DurableQueuePolicy(baseRetryDelay: .seconds(10), maxRetryDelay: .seconds(12))
        let queue = makeQueue(database: database, policy: policy, clock: clock)
        let deliverer = RecordingDeliverer { _, _ in throw retryableFailure }
        try await queue.register(destination: "crobox", deliverer: deliverer)
        try await queue.enqueue(payload("a"), destination: "crobox")
        await queue.flush()
        // After one failure: 10 s * 0.75 = 7.5 s.
        clock.advance(by: 7.4)
        await queue.flush()
        #expect(deliverer.callCount == 1)
        clock.advance(by: 0.1)
        await queue.flush()
        #expect(deliverer.callCount == 2)
        for attempt in 3...8 {
            // Afterwards capped: 12 s * 0.75 = 9 s, however many failures.
            clock.advance(by: 8.9)
            await queue.flush()
            #expect(deliverer.callCount == attempt - 1)
            clock.advance(by: 0.1)
            await queue.flush()
            #expect(deliverer.callCount == attempt)
        }
    }

    @Test func nonRetryableFailureDropsTheBatch() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let drops = DropRecorder()
        let queue = makeQueue(database: database, drops: drops)
        let deliverer = RecordingDeliverer { call, _ in
            if call == 0 { throw permanentFailure }
        }
        try await queue.register(destination: "crobox", deliverer: deliverer)
        let keys = try await queue.enqueue(contentsOf: [payload("bad1"), payload("bad2")], destination: "crobox")

        let report = await queue.flush()
        #expect(report.dropped == 2)
        #expect(report.delivered == 0)
        #expect(report.remaining == 0)
        #expect(report.failures["crobox"]?.httpStatus == 400)
        #expect(drops.all.count == 1)
        #expect(drops.all.first?.reason == .rejected)
        #expect(drops.all.first?.idempotencyKeys == keys)
        #expect(drops.all.first?.error?.httpStatus == 400)

        try await queue.enqueue(payload("good"), destination: "crobox")
        #expect(await queue.flush().delivered == 1)
        #expect(deliverer.payloads == [["bad1", "bad2"], ["good"]])
    }

    @Test("events older than maxEventAge are dropped as expired, the younger ones kept")
    func expiredEventsAreDropped() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let clock = FakeClock()
        let drops = DropRecorder()
        let queue = makeQueue(database: database, policy: DurableQueuePolicy(maxEventAge: .seconds(7 * 86_400)), clock: clock, drops: drops)
        let deliverer = RecordingDeliverer { _, _ in throw retryableFailure }
        try await queue.register(destination: "crobox", deliverer: deliverer)
        let old = try await queue.enqueue(payload("old"), destination: "crobox")
        clock.advance(by: 86_400)
        try await queue.enqueue(payload("young"), destination: "crobox")
        try await queue.enqueue(payload("other"), destination: "warply")
        clock.advance(by: 6 * 86_400)
        #expect(await queue.flush().dropped == 0)
        clock.advance(by: 1)
        let report = await queue.flush()
        #expect(report.dropped == 1)
        #expect(drops.all.map(\.reason) == [.expired])
        #expect(drops.all.first?.idempotencyKeys == [old])
        #expect(drops.all.first?.destination == "crobox")
        #expect(try await queue.pendingCount() == 2)
    }

    @Test func errorsThatAreNotEngageErrorsAreRetried() async throws {
        struct Opaque: Error {}
        let database = try EngageDatabase(location: .inMemory)
        let clock = FakeClock()
        let queue = makeQueue(database: database, clock: clock)
        let deliverer = RecordingDeliverer { call, _ in if call == 0 { throw Opaque() } }
        try await queue.register(destination: "crobox", deliverer: deliverer)
        try await queue.enqueue(payload("a"), destination: "crobox")
        let first = await queue.flush()
        #expect(first.retried == 1)
        #expect(first.failures["crobox"]?.isRetryable == true)
        clock.advance(by: 2)
        #expect(await queue.flush().delivered == 1)
    }

    @Test func cancelledRequestsAreRetriedNotDropped() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let clock = FakeClock()
        let drops = DropRecorder()
        let queue = makeQueue(database: database, clock: clock, drops: drops)
        let deliverer = RecordingDeliverer { call, _ in
            if call == 0 { throw EngageError(.cancelled, "The request was cancelled.") }
        }
        try await queue.register(destination: "crobox", deliverer: deliverer)
        try await queue.enqueue(payload("a"), destination: "crobox")
        #expect(await queue.flush().retried == 1)
        clock.advance(by: 2)
        #expect(await queue.flush().delivered == 1)
        #expect(drops.all.isEmpty)
    }

    @Test func aFailingDestinationPausesInOrderAndDoesNotBlockOthers() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let clock = FakeClock()
        let queue = makeQueue(database: database, policy: DurableQueuePolicy(batchSize: 2), clock: clock)
        let failing = RecordingDeliverer { _, _ in throw retryableFailure }
        let healthy = RecordingDeliverer()
        try await queue.register(destination: "crobox", deliverer: failing)
        try await queue.register(destination: "warply", deliverer: healthy)
        try await queue.enqueue(contentsOf: (1...6).map { payload("c\($0)") }, destination: "crobox")
        try await queue.enqueue(contentsOf: (1...3).map { payload("w\($0)") }, destination: "warply")

        let report = await queue.flush()
        #expect(failing.callCount == 1)
        #expect(report.retried == 2)
        #expect(report.delivered == 3)
        #expect(report.remaining == 6)
        #expect(healthy.payloads == [["w1", "w2"], ["w3"]])

        // The destination pauses: nothing after the failed batch goes before it.
        await queue.flush()
        #expect(failing.callCount == 1)
        clock.advance(by: 1.5)
        await queue.flush()
        #expect(failing.callCount == 2)
        #expect(failing.payloads[1] == ["c1", "c2"])
    }

    @Test func cancellingTheCallerDoesNotLoseTheOutcome() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let queue = makeQueue(database: database)
        let gate = GatedDeliverer()
        try await queue.register(destination: "crobox", deliverer: gate)
        try await queue.enqueue(payload("a"), destination: "crobox")
        let flush = Task { await queue.flush() }
        await eventually { gate.enteredCount == 1 }
        flush.cancel()
        gate.release()
        let report = await flush.value
        // The deliverer completed normally, so the batch counts as delivered.
        #expect(report.delivered == 1)
        #expect(try await queue.pendingCount() == 0)
    }

    @Test("a wall clock set back never strands a scheduled retry; set forward, due events go at once")
    func clockJumps() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let clock = FakeClock()
        let queue = makeQueue(database: database, policy: DurableQueuePolicy(maxRetryDelay: .seconds(300)), clock: clock)
        let deliverer = RecordingDeliverer { call, _ in if call == 0 || call == 2 { throw retryableFailure } }
        try await queue.register(destination: "d", deliverer: deliverer)
        _ = try await queue.enqueue(payload("a"), destination: "d")
        #expect(await queue.flush().retried == 1)  // due again within 300 s
        // The user sets the clock back a day: a due time beyond the longest back-off means the clock moved.
        clock.set(to: clock.now.addingTimeInterval(-86_400))
        #expect(await queue.flush().delivered == 1)
        _ = try await queue.enqueue(payload("b"), destination: "d")
        #expect(await queue.flush().retried == 1)
        // And forward ten days: the retry is due, once.
        clock.set(to: clock.now.addingTimeInterval(10 * 86_400))
        #expect(await queue.flush().delivered == 1)
        #expect(deliverer.payloads == [["a"], ["a"], ["b"], ["b"]])
    }
}
