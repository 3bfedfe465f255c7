/// Events the `DurableQueue` deleted without delivering them, reported through its `onDrop` callback.
public struct QueueDropReport: Sendable {
    /// Why events were dropped.
    public enum Reason: String, Sendable, Equatable {
        /// The queue was over `maxPendingEvents` or `maxStoredBytes` and its policy drops the oldest
        /// events.
        case overflow
        /// The destination answered with a rejection of these events (`DurableQueue.isRejection(_:)`),
        /// or its deliverer reported them refused.
        case rejected
        /// The events were older than the policy's `maxEventAge`.
        case expired
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
    /// The rejection, for `.rejected`; the read failure, for `.damaged`.
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
    /// Events of batches that failed without being rejected: kept, in order, for a later flush.
    public var retried = 0
    /// Events dropped (rejected or expired); each drop was also reported through `onDrop`.
    public var dropped = 0
    /// Events still pending in the flushed scope afterwards (their destination pausing after a
    /// failure, or with no registered deliverer).
    public var remaining = 0
    /// The last delivery or storage error of each destination that had one during this flush.
    public var failures: [String: EngageError] = [:]

    /// An empty report.
    public init() {}
}
