@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import Logging
import Testing

/// A deliverer that records every batch and answers with a scripted outcome.
final class RecordingDeliverer: QueueDelivering {
    /// What to do with the n-th call (0-based); `nil` accepts the batch.
    typealias Script = @Sendable (_ call: Int, _ batch: [QueuedEvent]) throws -> Void

    private let calls = Locked<[[QueuedEvent]]>([])
    private let script: Script?

    init(_ script: Script? = nil) {
        self.script = script
    }

    func deliver(_ batch: [QueuedEvent]) async throws {
        let index = calls.withLock { calls -> Int in
            calls.append(batch)
            return calls.count - 1
        }
        try script?(index, batch)
    }

    /// Every batch received, in order.
    var batches: [[QueuedEvent]] { calls.value }
    /// The payloads of every batch, as strings.
    var payloads: [[String]] { batches.map { $0.map { String(decoding: $0.payload, as: UTF8.self) } } }
    var callCount: Int { calls.value.count }
}

/// A deliverer that blocks inside `deliver` until `release()` is called.
final class GatedDeliverer: QueueDelivering {
    private struct State {
        var batches: [[QueuedEvent]] = []
        var waiters: [CheckedContinuation<Void, Never>] = []
        var isOpen = false
    }

    private let state = Locked(State())

    func deliver(_ batch: [QueuedEvent]) async throws {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let open = state.withLock { state -> Bool in
                state.batches.append(batch)
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if open { continuation.resume() }
        }
    }

    var enteredCount: Int { state.value.batches.count }
    var batches: [[QueuedEvent]] { state.value.batches }

    func release() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// Collects `onDrop` reports.
final class DropRecorder: Sendable {
    private let reports = Locked<[QueueDropReport]>([])

    var callback: @Sendable (QueueDropReport) -> Void {
        { [reports] report in reports.withLock { $0.append(report) } }
    }

    var all: [QueueDropReport] { reports.value }
}

/// A queue over `database` with a manual clock and a constant jitter fraction of 0.5.
func makeQueue(
    database: EngageDatabase,
    policy: DurableQueuePolicy = DurableQueuePolicy(),
    clock: FakeClock = FakeClock(),
    drops: DropRecorder = DropRecorder()
) -> DurableQueue {
    DurableQueue(
        database: database, policy: policy, clock: clock, random: ConstantRandom(fraction: 0.5),
        logger: Logger(label: "test.queue", factory: { _ in SwiftLogNoOpLogHandler() }), onDrop: drops.callback
    )
}

func payload(_ text: String) -> Data {
    Data(text.utf8)
}

let retryableFailure = EngageError(.network, "The connection was lost.", isRetryable: true)
let permanentFailure = EngageError.http(status: 400, message: "Bad event.")
