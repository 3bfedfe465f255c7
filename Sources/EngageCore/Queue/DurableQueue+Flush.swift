import Foundation
import GRDB
import Logging

extension DurableQueue {
    /// Delivers the due events of `destination` (or of every registered destination when `nil`).
    ///
    /// Only one flush runs at a time, and every event stored before the call is tried by the time it
    /// returns. A flush that was already running when the call was made may have passed a destination
    /// before the caller's events were stored, so the call waits for it and then runs its own; callers
    /// that waited together share the first flush started after their call (when it covers their
    /// scope). Events are never delivered twice by concurrent flushes.
    ///
    /// Due events (`next_attempt_at <= now`) go oldest first, in batches of `batchSize`. A delivered batch
    /// is deleted in one transaction. A retryable failure schedules the batch's events with exponential
    /// back-off and jitter and stops this destination's flush; a non-retryable failure, or reaching
    /// `maxAttempts`, drops the events (reported through `onDrop`) and also stops it.
    ///
    /// After `stop()` no flush starts: the call returns an empty report at once.
    @discardableResult
    public func flush(destination: String? = nil) async -> QueueFlushReport {
        guard !isStopped else { return QueueFlushReport() }
        let startedBeforeCall = flushCounter
        while let running = inFlight {
            flushWaiterCount += 1
            defer { flushWaiterCount -= 1 }
            if running.id > startedBeforeCall, running.scope == nil || running.scope == destination {
                return await running.task.value
            }
            _ = await running.task.value
        }
        guard !isStopped else { return QueueFlushReport() }
        return await startFlush(destination: destination)
    }

    /// Delivers the due events of every registered destination of `provider` (see
    /// `AnalyticsConsent.owner(ofDestination:)`), one destination after another, and returns the
    /// reports merged.
    @discardableResult
    public func flush(provider: ProviderID) async -> QueueFlushReport {
        var merged = QueueFlushReport()
        for destination in deliverers.keys.sorted() where AnalyticsConsent.owner(ofDestination: destination) == provider {
            let report = await flush(destination: destination)
            merged.delivered += report.delivered
            merged.retried += report.retried
            merged.dropped += report.dropped
            merged.remaining += report.remaining
            merged.failures.merge(report.failures) { first, _ in first }
        }
        return merged
    }

    /// Starts a flush now; the caller has made sure none is running.
    func startFlush(destination: String?) async -> QueueFlushReport {
        flushCounter += 1
        let id = flushCounter
        let task = Task { await self.runFlush(id: id, destination: destination) }
        inFlight = (id, destination, task)
        return await task.value
    }

    private func runFlush(id: UInt64, destination: String?) async -> QueueFlushReport {
        let report = await performFlush(destination: destination)
        if inFlight?.id == id { inFlight = nil }
        return report
    }

    private func performFlush(destination: String?) async -> QueueFlushReport {
        var report = QueueFlushReport()
        let now = clock.now
        let scope = destination.map { [$0] } ?? deliverers.keys.sorted()
        enqueuedSinceFlush.withLock { $0 = 0 }
        for name in scope {
            guard !Task.isCancelled else { break }
            guard let deliverer = deliverers[name] else {
                logger.debug("No deliverer registered for analytics destination", metadata: ["destination": "\(name)"])
                continue
            }
            await flush(name, deliverer: deliverer, dueAt: now, into: &report)
        }
        do {
            report.remaining = try await pendingCount(destination: destination)
        } catch {
            logger.error("Analytics queue could not be counted", metadata: ["error": "\(error)"])
        }
        return report
    }

    private func flush(
        _ destination: String, deliverer: any QueueDelivering, dueAt now: Date, into report: inout QueueFlushReport
    ) async {
        var lastID: Int64 = 0
        while !Task.isCancelled {
            // Checked before every batch: a switched-off provider's events stay queued (until it is
            // switched back on, or purged), and switching off stops a running flush at the next batch.
            if let consent, !consent.allows(destination: destination) { return }
            let batch: [QueuedEvent]
            do {
                batch = try await dueBatch(destination, dueAt: now, after: lastID)
            } catch {
                report.failures[destination] = storageFailure("read", destination, error)
                return
            }
            guard let last = batch.last else { return }
            lastID = last.id
            do {
                try await deliverer.deliver(batch)
            } catch let partial as PartialDeliveryError {
                let delivered = batch.filter { partial.deliveredIDs.contains($0.id) }
                guard await removeDelivered(delivered, destination: destination, into: &report) else { return }
                if Task.isCancelled { return }
                let rejected = batch.compactMap { event in partial.rejections[event.id].map { (event, $0) } }
                guard await dropRejected(rejected, destination: destination, into: &report) else { return }
                let rest = batch.filter { !partial.deliveredIDs.contains($0.id) && partial.rejections[$0.id] == nil }
                var untried = rest.filter { partial.untriedIDs.contains($0.id) }
                var failed = rest.filter { !partial.untriedIDs.contains($0.id) }
                if delivered.isEmpty, rejected.isEmpty, failed.isEmpty {
                    // Nothing was tried: count the batch as failed, or the loop would not move on.
                    (failed, untried) = (untried, [])
                }
                if !failed.isEmpty {
                    await handleFailure(partial.failure, batch: failed, destination: destination, into: &report)
                    // A failing destination is tried again later; its untried events are not charged.
                    if partial.failure.isRetryable || !untried.isEmpty { return }
                }
                if let firstUntried = untried.first {
                    lastID = firstUntried.id - 1
                }
                continue
            } catch {
                if Task.isCancelled {
                    // The flush itself was cancelled: the outcome is unknown, leave the events as they are.
                    return
                }
                await handleFailure(error, batch: batch, destination: destination, into: &report)
                return
            }
            guard await removeDelivered(batch, destination: destination, into: &report) else { return }
        }
    }

    /// Deletes events a deliverer refused for good and reports each through `onDrop` with its reason;
    /// `false` (with the failure reported) if the database refused.
    private func dropRejected(_ rejected: [(QueuedEvent, EngageError)], destination: String, into report: inout QueueFlushReport) async -> Bool {
        guard !rejected.isEmpty else { return true }
        guard await delete(rejected.map(\.0.id), destination: destination, action: "drop rejected events of", into: &report) else { return false }
        report.dropped += rejected.count
        report.failures[destination] = rejected[rejected.count - 1].1
        for (event, error) in rejected {
            logger.warning("Analytics event rejected and dropped", metadata: ["destination": "\(destination)", "error": "\(error.description)"])
            onDrop(QueueDropReport(destination: destination, reason: .rejected, idempotencyKeys: [event.idempotencyKey], error: error))
        }
        return true
    }

    /// Deletes delivered events; `false` (with the failure reported) if the database refused.
    private func removeDelivered(_ events: [QueuedEvent], destination: String, into report: inout QueueFlushReport) async -> Bool {
        guard !events.isEmpty else { return true }
        // On failure they are delivered but still stored: they may be sent again (with the same idempotency keys).
        guard await delete(events.map(\.id), destination: destination, action: "remove delivered events of", into: &report) else { return false }
        report.delivered += events.count
        return true
    }

    /// Deletes the events `ids`; `false` (with the failure to `action` reported) if the database refused.
    private func delete(_ ids: [Int64], destination: String, action: String, into report: inout QueueFlushReport) async -> Bool {
        do {
            try await writer.write { db in
                try db.execute(literal: "DELETE FROM engage_queue WHERE id IN \(ids)")
            }
            return true
        } catch {
            report.failures[destination] = storageFailure(action, destination, error)
            return false
        }
    }

    /// The next due events of `destination` after `lastID`. Rows that cannot be read (a NULL or
    /// mistyped cell) are moved aside into `engage_damaged_rows` and reported through `onDrop`
    /// (`.damaged`) instead of trapping at every launch or blocking the queue.
    private func dueBatch(_ destination: String, dueAt now: Date, after lastID: Int64) async throws -> [QueuedEvent] {
        let limit = policy.batchSize
        // No retry is scheduled further ahead than the longest back-off: a due time beyond that horizon
        // means the wall clock was set back since, and the event is due now rather than in a day.
        let horizon = now.timeIntervalSince1970 + policy.maxRetryDelay.seconds + 1
        let (events, damaged) = try await writer.read { db -> ([QueuedEvent], [DamagedEvent]) in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT id, destination, idempotency_key, payload, created_at, attempts FROM engage_queue
                    WHERE destination = ? AND (next_attempt_at <= ? OR next_attempt_at > ?) AND id > ?
                    ORDER BY id LIMIT ?
                    """,
                arguments: [destination, now.timeIntervalSince1970, horizon, lastID, limit]
            )
            var events: [QueuedEvent] = []
            var damaged: [DamagedEvent] = []
            for row in rows {
                do {
                    events.append(QueuedEvent(
                        id: try row.decode(forColumn: "id"), destination: try row.decode(forColumn: "destination"),
                        idempotencyKey: try row.decode(forColumn: "idempotency_key"), payload: try row.decode(forColumn: "payload"),
                        createdAt: Date(timeIntervalSince1970: try row.decode(forColumn: "created_at")), attempts: try row.decode(forColumn: "attempts")
                    ))
                } catch {
                    // `id` is the table's INTEGER PRIMARY KEY: SQLite keeps it an integer whatever happened.
                    guard let id: Int64 = try? row.decode(forColumn: "id") else { throw error }
                    damaged.append(DamagedEvent(id: id, key: try? row.decode(forColumn: "idempotency_key"), error: error))
                }
            }
            return (events, damaged)
        }
        if !damaged.isEmpty { try await moveAside(damaged, destination: destination) }
        return events
    }

    /// A queued row that could not be read.
    private struct DamagedEvent: Sendable {
        var id: Int64
        var key: String?
        var error: any Error
    }

    private func moveAside(_ damaged: [DamagedEvent], destination: String) async throws {
        let ids = damaged.map(\.id)
        let now = clock.now
        try await writer.write { db in
            _ = try DamagedRows.moveAside(
                db, from: QueueSchema.table,
                columns: ["id", "destination", "idempotency_key", "payload", "created_at", "attempts", "next_attempt_at"],
                where: "id IN (\(ids.map { _ in "?" }.joined(separator: ", ")))", arguments: StatementArguments(ids), at: now
            )
        }
        let failure = EngageError(
            .storage, "\(damaged.count) queued event(s) of '\(destination)' could not be read (a NULL or mistyped cell) and were moved aside to \(DamagedRows.table).",
            underlyingError: damaged[0].error
        )
        logger.error("Damaged analytics queue rows moved aside", metadata: ["destination": "\(destination)", "count": "\(damaged.count)"])
        onDrop(QueueDropReport(destination: destination, reason: .damaged, idempotencyKeys: damaged.map { $0.key ?? "damaged-row-\($0.id)" }, error: failure))
    }

    private func handleFailure(
        _ error: any Error, batch: [QueuedEvent], destination: String, into report: inout QueueFlushReport
    ) async {
        let wrapped = EngageError.wrapping(error)
        // Unknown errors and cancelled requests might be transient: retry rather than lose the events.
        let failure = !(error is EngageError) || wrapped.code == .cancelled ? wrapped.markedRetryable() : wrapped
        report.failures[destination] = failure

        let now = clock.now
        var rescheduled: [(id: Int64, attempts: Int, due: Double)] = []
        var exhausted: [QueuedEvent] = []
        let rejected = failure.isRetryable ? [] : batch
        if failure.isRetryable {
            for event in batch {
                let attempts = event.attempts + 1
                if attempts >= policy.maxAttempts {
                    exhausted.append(event)
                } else {
                    let delay = policy.retryDelay(afterAttempts: attempts, fraction: random.nextFraction())
                    rescheduled.append((event.id, attempts, now.adding(delay).timeIntervalSince1970))
                }
            }
        }
        let deletedIDs = (rejected + exhausted).map(\.id)
        let updates = rescheduled
        do {
            try await writer.write { db in
                let statement = try db.cachedStatement(
                    sql: "UPDATE engage_queue SET attempts = ?, next_attempt_at = ? WHERE id = ?"
                )
                for update in updates {
                    statement.setUncheckedArguments([update.attempts, update.due, update.id])
                    try statement.execute()
                }
                if !deletedIDs.isEmpty {
                    try db.execute(literal: "DELETE FROM engage_queue WHERE id IN \(deletedIDs)")
                }
            }
        } catch {
            report.failures[destination] = storageFailure("reschedule events of", destination, error)
            return
        }
        report.retried += rescheduled.count
        report.dropped += deletedIDs.count

        logger.warning(
            "Analytics delivery failed",
            metadata: [
                "destination": "\(destination)", "events": "\(batch.count)", "error": "\(failure.description)",
                "retryable": "\(failure.isRetryable)", "rescheduled": "\(rescheduled.count)",
                "dropped": "\(deletedIDs.count)",
            ]
        )
        if !rejected.isEmpty {
            onDrop(QueueDropReport(
                destination: destination, reason: .rejected, idempotencyKeys: rejected.map(\.idempotencyKey),
                error: failure
            ))
        }
        if !exhausted.isEmpty {
            onDrop(QueueDropReport(
                destination: destination, reason: .maxAttemptsReached,
                idempotencyKeys: exhausted.map(\.idempotencyKey), error: failure
            ))
        }
    }

    private func storageFailure(_ action: String, _ destination: String, _ error: any Error) -> EngageError {
        let failure = EngageError(
            .storage, "The analytics queue could not \(action) '\(destination)'.", isRetryable: true,
            underlyingError: error
        )
        logger.error("Analytics queue storage failure", metadata: ["error": "\(failure.description)"])
        return failure
    }
}
