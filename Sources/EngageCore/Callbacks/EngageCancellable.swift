/// A handle to an operation started with a completion handler.
///
/// Named `EngageCancellable`, not `Cancellable`, so that a file importing both EngageKit and Combine
/// (whose `Cancellable` protocol every SwiftUI app sees) needs no module qualification.
public protocol EngageCancellable: Sendable {
    /// Cancels the operation; its completion handler then receives `.cancelled`, unless the operation
    /// completed anyway (its result is delivered) or the handler already ran.
    func cancel()
}

/// The `EngageCancellable` returned by callback twins: cancels the task that runs the async operation.
@_spi(EngageProvider) public final class TaskCancellable: EngageCancellable {
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
