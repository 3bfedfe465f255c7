@_spi(EngageProvider) import EngageCore
import Foundation

/// A clock that moves only when told to, for deterministic tests of expiry, back-off and breakers.
///
/// `sleep(for:)` suspends until `advance(by:)` moves the clock past the sleeper's deadline (or the
/// task is cancelled). A zero or negative sleep returns at once.
///
/// ```swift
/// let clock = FakeClock()
/// async let result = operationThatRetries(clock: clock)
/// await clock.waitForSleepers(1)
/// clock.advance(by: .seconds(2))
/// ```
@_spi(EngageProvider) public final class FakeClock: EngageClock {
    private struct Sleeper {
        let id: UInt64
        let deadline: Date
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Date
        var uptime: Duration = .zero
        var sleepers: [Sleeper] = []
        var nextID: UInt64 = 0
        var sleepCount = 0
        /// Sleeps cancelled before their continuation was registered.
        var cancelledIDs: Set<UInt64> = []
        var watchers: [(id: UInt64, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state: Locked<State>

    /// A clock at `now` (by default a fixed instant, 2023-11-14T22:13:20Z).
    public init(now: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        state = Locked(State(now: now))
    }

    /// The fake current time.
    public var now: Date { state.withLock { $0.now } }

    /// How far the clock was advanced since it was made: moved by ``advance(by:)`` (and by
    /// ``set(to:)`` forward), never back, so deadlines and durations follow the fake time.
    public var uptime: Duration { state.withLock { $0.uptime } }

    /// How many tasks are sleeping on this clock right now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// How many sleeps were requested in total (for asserting back-off happened).
    public var totalSleepCount: Int { state.withLock { $0.sleepCount } }

    /// Suspends until the clock is advanced past `now + duration`; throws `CancellationError` when cancelled.
    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (outcome, readyWatchers) = state.withLock { state -> (Bool?, [CheckedContinuation<Void, Never>]) in
                    if state.cancelledIDs.remove(id) != nil { return (false, []) }
                    state.sleepCount += 1
                    let deadline = state.now.adding(duration)
                    if duration <= .zero { return (true, []) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return (nil, Self.takeReadyWatchers(&state))
                }
                readyWatchers.forEach { $0.resume() }
                switch outcome {
                case true?: continuation.resume()
                case false?: continuation.resume(throwing: CancellationError())
                case nil: break
                }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    // Cancelled before the sleeper was registered: the registration sees this and throws.
                    state.cancelledIDs.insert(id)
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward and wakes every sleeper whose deadline has passed, earliest first.
    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.adding(duration)
            state.uptime += max(duration, .zero)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        due.forEach { $0.continuation.resume() }
    }

    /// Sets the clock to `date` (forward or backward) without waking anyone unless the date is later;
    /// only a later date moves ``uptime``, as a device's date set back does not turn back its monotonic
    /// clock.
    public func set(to date: Date) {
        let delta = date.timeIntervalSince(now)
        if delta > 0 {
            advance(by: .seconds(double: delta))
        } else {
            state.withLock { $0.now = date }
        }
    }

    /// Suspends until at least `count` tasks are sleeping on this clock, or until the waiting task is
    /// cancelled (a test past its deadline).
    public func waitForSleepers(_ count: Int = 1) async {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    if state.sleepers.count >= count || Task.isCancelled { return true }
                    state.watchers.append((id, count, continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let watcher = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let index = state.watchers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.watchers.remove(at: index).continuation
            }
            watcher?.resume()
        }
    }

    private static func takeReadyWatchers(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        let count = state.sleepers.count
        let ready = state.watchers.filter { $0.count <= count }.map(\.continuation)
        state.watchers.removeAll { $0.count <= count }
        return ready
    }
}
