import Synchronization

/// A value guarded by a mutex: for hot synchronous state shared across tasks and threads.
///
/// Prefer an actor when the state must be coordinated across suspension points; use `Locked` when the
/// critical section is short and synchronous.
public final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    /// A lock around `value`.
    public init(_ value: Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with exclusive access to the value and returns its result.
    @discardableResult
    public func withLock<Result: Sendable>(_ body: (inout sending Value) throws -> sending Result) rethrows -> Result {
        try mutex.withLock(body)
    }

    /// A copy of the current value.
    public var value: Value {
        mutex.withLock { $0 }
    }
}
