@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import EngageTestTraits
import Foundation
import GRDB
import Testing

/// A destination's pause starts when it failed, not when the flush started, and a damaged count of
/// failures never traps.
@Suite("DurableQueue: pauses counted from the failure", .bounded)
struct DurableQueuePauseTests {
    /// Destinations are flushed one after another: a slow one first can take a minute and a half, and
    /// a 429 with `Retry-After: 60` after that was paused until 60 s after the flush *started*, a time
    /// already past when the flush ended, so the next flush sent to it again at once.
    @Test("429 Retry-After: 60 after a 90-second delivery to another destination: no resend before 60 s from the 429")
    func pauseStartsAtTheFailure() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let clock = FakeClock()
        let queue = makeQueue(database: database, clock: clock)
        // "a-slow" is flushed first (destinations go in name order) and takes 90 s of the clock.
        let slow = RecordingDeliverer { _, _ in clock.advance(by: 90) }
        let busy = RecordingDeliverer { _, _ in
            throw EngageError(.httpStatus, "Too many requests.", httpStatus: 429, isRetryable: true, retryAfter: .seconds(60))
        }
        try await queue.register(destination: "a-slow", deliverer: slow)
        try await queue.register(destination: "b-busy", deliverer: busy)
        try await queue.enqueue(payload("a1"), destination: "a-slow")
        try await queue.enqueue(payload("b1"), destination: "b-busy")

        let first = await queue.flush()
        #expect(first.failures["b-busy"]?.httpStatus == 429)
        #expect(busy.callCount == 1)
        // Right after that flush, and 59 s after the 429: still paused.
        await queue.flush()
        #expect(busy.callCount == 1, "sent again before Retry-After had passed")
        clock.advance(by: 59)
        await queue.flush()
        #expect(busy.callCount == 1)
        clock.advance(by: 2)
        await queue.flush()
        #expect(busy.callCount == 2)
    }

    /// A damaged row (or one written by a buggy version) holding the largest count: `failures += 1`
    /// trapped the process.
    @Test("a stored count of failures at Int.max, or negative, is read without a trap and the destination still backs off")
    func damagedFailureCounts() async throws {
        for stored in [Int.max, -5] {
            let database = try EngageDatabase(location: .inMemory)
            let clock = FakeClock()
            let queue = makeQueue(database: database, clock: clock)
            let failing = RecordingDeliverer { _, _ in throw retryableFailure }
            try await queue.register(destination: "crobox", deliverer: failing)
            try await queue.enqueue(payload("a"), destination: "crobox")
            try await database.writer.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO engage_queue_destinations (destination, failures, not_before) VALUES ('crobox', ?, 0)
                        ON CONFLICT (destination) DO UPDATE SET failures = excluded.failures, not_before = 0
                        """, arguments: [stored])
            }
            let report = await queue.flush()
            #expect(report.failures["crobox"]?.code == .network)
            #expect(failing.callCount == 1)
            let pause = try #require(try await queue.pause(of: "crobox"))
            #expect(pause.failures >= 1 && pause.notBefore > clock.now, "stored \(stored)")
            #expect(try await queue.pendingCount() == 1)
        }
    }
}
