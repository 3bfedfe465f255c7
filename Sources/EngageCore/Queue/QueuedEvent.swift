import Foundation

/// An analytics event waiting in the `DurableQueue`, as handed to a `QueueDelivering` destination.
@_spi(EngageProvider) public struct QueuedEvent: Sendable, Equatable, Identifiable {
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
    /// How many delivery attempts of this event failed before this one (for information: failures never
    /// drop an event).
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
/// again. Throw the error of the failed request otherwise (as `APIClient` throws it): when it judges the
/// events themselves (`DurableQueue.isRejection(_:)`: a 4xx other than 401/403/407/408/425/429, an
/// encoding failure) the batch is dropped and reported; any other error (network failure, 5xx, 429,
/// refused credentials, errors that are not `EngageError`s, cancellation) keeps the events in order and
/// pauses the destination, honouring the error's `retryAfter`.
///
/// A destination that sends events one by one (and so can fail half-way through a batch) throws
/// `PartialDeliveryError` saying what happened to each event: delivered ones are deleted, rejected ones
/// dropped (and reported), untried ones left as they are, and the rest handled per its `failure`.
@_spi(EngageProvider) public protocol QueueDelivering: Sendable {
    /// Sends `batch` (oldest first, at most the policy's `batchSize` events, all for this destination).
    func deliver(_ batch: [QueuedEvent]) async throws
}

/// Thrown by a `QueueDelivering` that handled the events of a batch differently, typically one that
/// sends them one by one:
///
/// - ``deliveredIDs`` were accepted: removed from the queue, never sent again.
/// - ``rejections`` were refused for good (a 4xx for that event, a payload this version cannot read):
///   each is dropped and reported through the queue's `onDrop` with its own error; the others of the
///   batch are not affected.
/// - ``untriedIDs`` were never sent (the deliverer stopped first): left as they are, no attempt charged.
/// - Every other event of the batch was tried and failed with ``failure``: dropped when the failure is
///   a rejection (`DurableQueue.isRejection(_:)`), else kept (charged an attempt, for information) while
///   the destination pauses; the untried ones then wait behind them, in order.
@_spi(EngageProvider) public struct PartialDeliveryError: Error, Sendable {
    /// The ids (`QueuedEvent.id`) of the events that were delivered.
    public var deliveredIDs: Set<Int64>
    /// The events refused for good, each with its reason.
    public var rejections: [Int64: EngageError]
    /// The events that were never sent.
    public var untriedIDs: Set<Int64>
    /// Why the other events of the batch were not delivered.
    public var failure: EngageError

    /// An outcome per event: `deliveredIDs` accepted, `rejections` refused for good, `untriedIDs` never
    /// sent, and the rest of the batch failed with `failure`.
    public init(deliveredIDs: Set<Int64>, rejections: [Int64: EngageError] = [:], untriedIDs: Set<Int64> = [], failure: EngageError) {
        self.deliveredIDs = deliveredIDs
        self.rejections = rejections
        self.untriedIDs = untriedIDs
        self.failure = failure
    }
}
