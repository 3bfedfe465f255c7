/// Events the `DurableQueue` deleted without delivering them, reported through its `onDrop` callback.
public struct QueueDropReport: Sendable {
    /// Why events were dropped.
    public enum Reason: String, Sendable, Equatable {
        /// The queue was full and its policy drops the oldest events.
        case overflow
        /// The destination rejected the batch with a non-retryable error.
        case rejected
        /// The events failed `maxAttempts` deliveries.
        case maxAttemptsReached
        /// The stored rows could not be read (a NULL or mistyped cell): they were moved aside into the
        /// `engage_damaged_rows` table, never delivered.
        case damaged
    }

    /// The destination of the dropped events.
    public var destination: String
    /// Why they were dropped.
    public var reason: Reason
    /// The idempotency keys of the dropped events, oldest first.
    public var idempotencyKeys: [String]
    /// The delivery error, for `.rejected` and `.maxAttemptsReached`.
    public var error: EngageError?

    /// How many events were dropped.
    public var count: Int { idempotencyKeys.count }

    /// A report of `idempotencyKeys` of `destination` dropped for `reason`.
    public init(destination: String, reason: Reason, idempotencyKeys: [String], error: EngageError? = nil) {
        self.destination = destination
        self.reason = reason
        self.idempotencyKeys = idempotencyKeys
        self.error = error
    }
}

/// What one `DurableQueue.flush` did.
public struct QueueFlushReport: Sendable {
    /// Events delivered and deleted.
    public var delivered = 0
    /// Events whose delivery failed and that are scheduled for a retry.
    public var retried = 0
    /// Events dropped (rejected, or out of attempts); each drop was also reported through `onDrop`.
    public var dropped = 0
    /// Events still pending in the flushed scope afterwards (not yet due, backing off, or with no
    /// registered destination).
    public var remaining = 0
    /// The last delivery or storage error of each destination that had one during this flush.
    public var failures: [String: EngageError] = [:]

    /// An empty report.
    public init() {}
}
