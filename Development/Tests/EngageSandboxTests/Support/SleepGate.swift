@_spi(EngageProvider) @testable import EngageCore

/// A stand-in for `Task.sleep` that records each requested duration and holds the sleeper until the
/// test releases it, so delay faults are tested by ordering instead of wall-clock time.
final class SleepGate: Sendable {
    private struct State {
        var held: [CheckedContinuation<Void, Never>] = []
        var released = false
    }

    private let state = Locked(State())
    private let entries: AsyncStream<Duration>
    private let entered: AsyncStream<Duration>.Continuation

    init() {
        (entries, entered) = AsyncStream.makeStream(of: Duration.self)
    }

    /// The sleep function to inject.
    var sleep: @Sendable (Duration) async throws -> Void {
        { duration in await self.hold(duration) }
    }

    /// Waits until a sleeper is held and returns the duration it asked for, or `nil` when none
    /// arrives within `timeout` (so a missing delay fails the test instead of hanging it).
    func nextSleeper(timeout: Duration) async -> Duration? {
        let entries = self.entries
        return await withTaskGroup(of: Duration?.self) { group in
            group.addTask {
                var iterator = entries.makeAsyncIterator()
                return await iterator.next()
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// Lets every held sleeper (and all later ones) continue.
    func release() {
        let held = state.withLock { state in
            state.released = true
            defer { state.held.removeAll() }
            return state.held
        }
        for continuation in held { continuation.resume() }
    }

    private func hold(_ duration: Duration) async {
        await withCheckedContinuation { continuation in
            let passThrough = state.withLock { state in
                if state.released { return true }
                state.held.append(continuation)
                return false
            }
            entered.yield(duration)
            if passThrough { continuation.resume() }
        }
    }
}
