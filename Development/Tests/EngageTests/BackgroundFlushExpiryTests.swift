@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import Logging
import EngageTestTraits
import Testing

/// The background flush ends with the system's time: the request in flight is cancelled, the activity
/// returns at once, and what was not delivered stays queued.
@Suite("Background flush: expiry", .bounded)
struct BackgroundFlushExpiryTests {
    /// An expiring activity the test drives: `block(false)` runs on a thread of its own; `expire()`
    /// calls `block(true)` as the system does when the time runs out.
    final class FakeActivity: Sendable {
        private let state = Locked<(block: (@Sendable (Bool) -> Void)?, returned: Bool)>((nil, false))

        var run: BackgroundFlush.ExpiringActivity {
            { [state] _, block in
                state.withLock { $0.block = block }
                Thread.detachNewThread {
                    block(false)
                    state.withLock { $0.returned = true }
                }
            }
        }

        var returned: Bool { state.value.returned }

        func expire() {
            state.value.block?(true)
        }
    }

    /// Never answers: returns only when its task is cancelled, as a URLSession request does.
    final class HangingDeliverer: QueueDelivering {
        private let counts = Locked((entered: 0, cancelled: 0))

        func deliver(_ batch: [QueuedEvent]) async throws {
            counts.withLock { $0.entered += 1 }
            let gate = TestGate()
            await withTaskCancellationHandler {
                await gate.wait()
            } onCancel: {
                gate.open()
            }
            counts.withLock { $0.cancelled += 1 }
            throw EngageError(.cancelled, "The request was cancelled.")
        }

        var entered: Int { counts.value.entered }
        var cancelled: Int { counts.value.cancelled }
    }

    @Test("when the background time runs out during a hanging flush, the flush is cancelled and the activity ends; no event is lost")
    func expiryDuringAHangingFlush() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let queue = DurableQueue(
            database: database, clock: FakeClock(), random: SeededRandomSource(seed: 7),
            logger: Logger(label: "test.background", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        let hanging = HangingDeliverer()
        try await queue.register(destination: "crobox", deliverer: hanging)
        try await queue.enqueue(Data("a".utf8), destination: "crobox")
        let center = NotificationCenter()
        let activity = FakeActivity()
        let observer = BackgroundFlush(center: center, activity: activity.run) { await queue.flush() }
        center.post(name: BackgroundFlush.didEnterBackground, object: nil)
        try #require(await waitUntil { hanging.entered == 1 })
        #expect(!activity.returned)

        activity.expire()
        try #require(await waitUntil { activity.returned })
        try #require(await waitUntil { hanging.cancelled == 1 })
        try #require(await waitUntil { await !queue.isFlushing })
        #expect(try await queue.pendingCount() == 1)
        observer.stop()
    }
}
