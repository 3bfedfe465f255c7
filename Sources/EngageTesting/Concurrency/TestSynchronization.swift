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

/// A one-shot gate: tasks `wait()` until someone calls `open()`; after that `wait()` returns at once.
/// Use it to hold a fake backend's answer while a test arranges concurrent callers.
public final class TestGate: Sendable {
    private let state = Locked<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    public init() {}

    /// Suspends until the gate is open.
    public func wait() async {
        await withCheckedContinuation { continuation in
            let open = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if open { continuation.resume() }
        }
    }

    /// Opens the gate and releases every waiter.
    public func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }
}

/// Polls `condition` every 2 ms until it holds (`true`) or `timeout` of real time has passed (`false`).
/// The timeout only elapses when the code under test is broken, so it is long: a loaded CI machine
/// running suites in parallel can take seconds to schedule a task. Assert on the result.
/// It runs on the caller's actor, so a `@MainActor` test can poll main-actor state.
public func waitUntil(
    timeout: Duration = .seconds(60), isolation: isolated (any Actor)? = #isolation, _ condition: () async -> Bool
) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return await condition()
}
