import Foundation

/// An analytics event waiting in the `DurableQueue`, as handed to a `QueueDelivering` destination.
public struct QueuedEvent: Sendable, Equatable, Identifiable {
    /// The row id: increasing in enqueue order.
    public var id: Int64
    /// The destination the event is for, such as `"crobox"` or `"warply.analytics"`.
    public var destination: String
    /// The key that identifies the event across retries; send it to servers that deduplicate.
    public var idempotencyKey: String
    /// The event as the destination's wire format expects it (typically JSON).
    public var payload: Data
    /// When the event was enqueued.
    public var createdAt: Date
    /// How many delivery attempts failed before this one.
    public var attempts: Int

    /// An event as stored in the queue.
    public init(
        id: Int64, destination: String, idempotencyKey: String, payload: Data, createdAt: Date, attempts: Int
    ) {
        self.id = id
        self.destination = destination
        self.idempotencyKey = idempotencyKey
        self.payload = payload
        self.createdAt = createdAt
        self.attempts = attempts
    }
}

/// Delivers batches of queued events to one destination (one conformer per destination).
///
/// Return normally only when the whole batch was accepted: the events are then deleted and never sent
/// again. Throw an `EngageError` with `isRetryable == true` (network failure, 5xx, 429...) to have the
/// batch retried with back-off, or with `isRetryable == false` when the destination permanently rejects
/// it (the events are dropped and reported). Errors that are not `EngageError`s, and `.cancelled`
/// ones, are treated as retryable.
///
/// A destination that sends events one by one (and so can fail half-way through a batch) throws
/// `PartialDeliveryError` naming the events it did deliver: those are deleted, the rest retried.
public protocol QueueDelivering: Sendable {
    /// Sends `batch` (oldest first, at most the policy's `batchSize` events, all for this destination).
    func deliver(_ batch: [QueuedEvent]) async throws
}

/// Thrown by a `QueueDelivering` that delivered part of a batch before failing: the delivered events are
/// removed from the queue (never sent again) and the others are handled per `failure`.
public struct PartialDeliveryError: Error, Sendable {
    /// The ids (`QueuedEvent.id`) of the events that were delivered.
    public var deliveredIDs: Set<Int64>
    /// Why the others were not.
    public var failure: EngageError

    /// A partial delivery: `deliveredIDs` were accepted, the others failed with `failure`.
    public init(deliveredIDs: Set<Int64>, failure: EngageError) {
        self.deliveredIDs = deliveredIDs
        self.failure = failure
    }
}
