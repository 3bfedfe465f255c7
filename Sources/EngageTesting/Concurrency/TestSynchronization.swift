@_spi(EngageProvider) import EngageCore
import Foundation

/// A counter safe to bump from many tasks, e.g. to count calls to a fake backend.
public final class TestCounter: Sendable {
    private let value = Locked(0)

    public init() {}

    /// Adds one and returns the new value.
    @discardableResult
    public func increment() -> Int {
        value.withLock { value -> Int in
            value += 1
            return value
        }
    }

    /// The current value.
    public var count: Int { value.value }
}

/// A one-shot gate: tasks `wait()` until someone calls `open()` (or they are cancelled); after that
/// `wait()` returns at once.
/// Use it to hold a fake backend's answer while a test arranges concurrent callers.
public final class TestGate: Sendable {
    private let state = Locked<(open: Bool, waiters: [(id: UUID, continuation: CheckedContinuation<Void, Never>)])>((false, []))

    public init() {}

    /// Suspends until the gate is open, or until the waiting task is cancelled (a test past its
    /// deadline), so that no test can wait on a gate for ever.
    public func wait() async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    if state.open || Task.isCancelled { return true }
                    state.waiters.append((id, continuation))
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume()
        }
    }

    /// Opens the gate and releases every waiter.
    public func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters.map(\.continuation)
        }
        waiters.forEach { $0.resume() }
    }
}

/// Polls `condition` until it holds (`true`), or until the waiting task is cancelled (`false`).
///
/// There is no wall-clock limit: a loaded machine running suites in parallel can take seconds to
/// schedule a task, and a test must not fail for that. What bounds the wait is the test's own
/// deadline (the package's `.bounded` trait, or Swift Testing's `.timeLimit`), which cancels the test
/// and names it. The polling interval starts at 1 ms and grows to 20 ms. It runs on the caller's
/// actor, so a `@MainActor` test can poll main-actor state. Assert on the result.
public func waitUntil(isolation: isolated (any Actor)? = #isolation, _ condition: () async -> Bool) async -> Bool {
    var interval = Duration.milliseconds(1)
    while !Task.isCancelled {
        if await condition() { return true }
        try? await Task.sleep(for: interval)
        interval = min(interval * 2, .milliseconds(20))
    }
    return await condition()
}
