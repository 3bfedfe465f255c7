import Foundation
import GRDB
import Logging

/// A persistent outbox for analytics events: events are written to SQLite before they are sent,
/// delivered in batches per destination with retry and back-off, and deleted once a destination accepts
/// them, so they survive a crash or kill and a successful batch is never sent again.
///
/// ```swift
/// let queue = DurableQueue(database: database, clock: SystemClock(), random: SystemRandomSource(),
///                              logger: logger)
/// try await queue.register(destination: "crobox", deliverer: CroboxEventDeliverer(client: client))
/// try await queue.enqueue(eventJSON, destination: "crobox")
/// await queue.startAutomaticFlush()
/// ```
///
/// Delivery guarantees: at least once, and exactly once when the process is not killed between a
/// destination accepting a batch and the deletion of its rows (a single short transaction). Each event
/// keeps its idempotency key across retries, so servers that deduplicate can make delivery exactly once.
///
/// Flushing: one flush runs at a time per queue. Within a flush, each destination's events are sent
/// oldest first in batches of `batchSize`; a destination's flush stops at its first failed batch and
/// the destination pauses (back-off with jitter, or the server's `Retry-After`, stored across launches),
/// so an unreachable destination costs one attempt per pause and its events keep their order. Only a
/// rejection (``isRejection(_:)``), the policy's `maxEventAge` or its bounds drop events, each
/// reported through `onDrop`; no number of failures does.
@_spi(EngageProvider) public actor DurableQueue {
    /// The queue's limits and timing.
    public nonisolated let policy: DurableQueuePolicy
    /// The database holding the queue.
    public nonisolated let database: EngageDatabase

    let writer: any DatabaseWriter
    let clock: any EngageClock
    let random: any RandomSource
    let logger: Logger
    let onDrop: @Sendable (QueueDropReport) -> Void
    /// The user's analytics choice, checked when events are stored and delivered (`nil`: always on).
    public nonisolated let consent: AnalyticsConsent?

    var deliverers: [String: any QueueDelivering] = [:]
    var inFlight: (id: UInt64, scope: String?, task: Task<QueueFlushReport, Never>)?
    var flushCounter: UInt64 = 0
    var automaticTask: Task<Void, Never>?
    var soonTask: Task<Void, Never>?
    /// Events stored since the last flush; lock-protected so that enqueueing needs no actor hop.
    let enqueuedSinceFlush = Locked(0)

    /// Whether `stop()` was called: no flush starts any more.
    public internal(set) var isStopped = false

    /// Whether a flush is running.
    public var isFlushing: Bool { inFlight != nil }
    /// How many `flush` calls are waiting for the running flush (for diagnostics and tests).
    package internal(set) var flushWaiterCount = 0

    /// A queue stored in `database` (its table is created when the database opens).
    ///
    /// - Parameters:
    ///   - database: The SQLite database the events are stored in (the registry's).
    ///   - policy: Limits and timing. Validate it first with `DurableQueuePolicy.validate()`: here, an
    ///     out-of-range field is replaced by its default and logged as an error.
    ///   - clock: The time source for due times and automatic flushing.
    ///   - random: The source of back-off jitter.
    ///   - logger: Receives one line per failed batch or drop; payloads are never logged.
    ///   - onDrop: Called (on the queue's actor, keep it short) whenever events are deleted undelivered.
    ///   - consent: The user's analytics choice: events of a destination whose provider is switched off
    ///     are neither stored nor delivered. `nil` allows everything.
    public init(
        database: EngageDatabase,
        policy: DurableQueuePolicy = DurableQueuePolicy(),
        clock: any EngageClock,
        random: any RandomSource,
        logger: Logger,
        onDrop: @escaping @Sendable (QueueDropReport) -> Void = { _ in },
        consent: AnalyticsConsent? = nil
    ) {
        let issues = policy.validationIssues()
        if !issues.isEmpty {
            logger.error(
                "Invalid analytics queue policy; using defaults for the invalid fields",
                metadata: ["issues": "\(issues.joined(separator: " "))"]
            )
        }
        self.database = database
        self.policy = policy.sanitized()
        self.writer = database.writer
        self.clock = clock
        self.random = random
        self.logger = logger
        self.onDrop = onDrop
        self.consent = consent
    }

    deinit {
        automaticTask?.cancel()
        soonTask?.cancel()
    }

    /// Sets the deliverer of `destination`, replacing any previous one. Events of a destination without
    /// a deliverer stay queued until one is registered.
    ///
    /// - Throws: `EngageError(.invalidInput)` for an invalid destination name.
    public func register(destination: String, deliverer: any QueueDelivering) throws {
        try Self.validateDestination(destination)
        deliverers[destination] = deliverer
    }

    /// Removes the deliverer of `destination`; its events stay queued.
    public func unregister(destination: String) {
        deliverers[destination] = nil
    }

    /// Deletes every queued event of `provider`'s destinations (those whose name is the provider's id or
    /// starts with `<id>.`), or of every destination when `nil`, and returns how many were deleted.
    /// Used when the user opts out of analytics and asks for what was collected to be forgotten.
    @discardableResult
    public func purge(provider: ProviderID? = nil) async throws(EngageError) -> Int {
        do {
            return try await writer.write { db in
                if let provider {
                    try db.execute(
                        sql: "DELETE FROM engage_queue WHERE destination = ? OR substr(destination, 1, ?) = ?",
                        arguments: [provider.rawValue, provider.rawValue.utf8.count + 1, provider.rawValue + "."]
                    )
                } else {
                    try db.execute(sql: "DELETE FROM engage_queue")
                }
                return db.changesCount
            }
        } catch {
            throw EngageError(.storage, "The analytics queue could not be purged.", providerID: provider, underlyingError: error)
        }
    }

    /// The number of queued events of `destination`, or of all destinations when `nil`.
    public func pendingCount(destination: String? = nil) async throws -> Int {
        do {
            return try await writer.read { db in
                if let destination {
                    return try Int.fetchOne(
                        db, sql: "SELECT COUNT(*) FROM engage_queue WHERE destination = ?", arguments: [destination]
                    ) ?? 0
                }
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM engage_queue") ?? 0
            }
        } catch {
            throw EngageError(.storage, "The analytics queue could not be counted.", underlyingError: error)
        }
    }

    /// The number of queued events per provider (the part of each destination before its first `.`,
    /// `engage` for events staged before the providers started), now and after every change to the
    /// queue, for as long as the sequence is iterated. GRDB observes the table: nothing polls, and
    /// nothing is observed once iteration stops.
    package nonisolated func pendingCountsByProvider() -> AsyncThrowingStream<[ProviderID: Int], any Error> {
        let observation = ValueObservation.tracking { db -> [ProviderID: Int] in
            var counts: [ProviderID: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT destination, COUNT(*) AS n FROM engage_queue GROUP BY destination") {
                guard let destination = row.readableValue("destination", as: String.self), let count = row.readableValue("n", as: Int.self)
                else { continue }
                let provider = ProviderID(rawValue: String(destination.prefix { $0 != "." }))
                counts[provider, default: 0] += count
            }
            return counts
        }
        .removeDuplicates()
        .values(in: writer, bufferingPolicy: .bufferingNewest(1))
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: [ProviderID: Int].self, bufferingPolicy: .bufferingNewest(1))
        let forwarding = Task {
            do {
                for try await counts in observation { continuation.yield(counts) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in forwarding.cancel() }
        return stream
    }

    /// Destinations are 1 to 128 ASCII letters, digits, `.`, `-` and `_`, such as `"warply.analytics"`.
    static func validateDestination(_ destination: String) throws {
        guard StorageIdentifier.isValidSimpleName(destination) else {
            throw EngageError(
                .invalidInput,
                "Invalid queue destination '\(destination.prefix(80))': use 1 to 128 letters, digits, '.', '-' or '_'."
            )
        }
    }
}
