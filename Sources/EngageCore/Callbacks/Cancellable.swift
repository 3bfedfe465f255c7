/// A handle to an operation started with a completion handler.
public protocol Cancellable: Sendable {
    /// Cancels the operation; its completion handler then receives `.cancelled`, unless the operation
    /// completed anyway (its result is delivered) or the handler already ran.
    func cancel()
}

/// The `Cancellable` returned by callback twins: cancels the task that runs the async operation.
public final class TaskCancellable: Cancellable {
    private let task: Locked<Task<Void, Never>?>

    init(_ task: Task<Void, Never>) {
        self.task = Locked(task)
    }

    /// Cancels the task (idempotent).
    public func cancel() {
        task.withLock { $0?.cancel() }
    }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool {
        task.withLock { $0?.isCancelled ?? true }
    }
}
