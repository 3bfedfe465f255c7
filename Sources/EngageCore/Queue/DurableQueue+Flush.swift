import Foundation
import GRDB
import Logging

extension DurableQueue {
    /// Delivers the pending events of `destination` (or of every registered destination when `nil`).
    ///
    /// Only one flush runs at a time, and every event stored before the call is tried by the time it
    /// returns (unless its destination is pausing, see below). A flush that was already running when
    /// the call was made may have passed a destination before the caller's events were stored, so the
    /// call waits for it and then runs its own; callers that waited together share the first flush
    /// started after their call (when it covers their scope). Events are never delivered twice by
    /// concurrent flushes.
    ///
    /// First, events older than the policy's `maxEventAge` are dropped (`.expired`). Then each
    /// destination's events go oldest first, in batches of `batchSize`; a delivered batch is deleted in
    /// one transaction. A failure that judges the events (``isRejection(_:)``) drops them (reported
    /// through `onDrop`); any other failure keeps them, in order, and pauses their destination: for the
    /// back-off (exponential with jitter, reset by a delivery) or for the server's `Retry-After`,
    /// whichever is longer. A pausing destination is not tried by any flush until its time, across
    /// launches.
    ///
    /// Cancelling the calling task cancels the flush it started or joined: the batch in flight is
    /// abandoned (its events stay queued, and may be sent again with the same idempotency keys) and no
    /// further batch is sent. After `stop()` no flush starts: the call returns an empty report at once.
    @discardableResult
    public func flush(destination: String? = nil) async -> QueueFlushReport {
        guard !isStopped else { return QueueFlushReport() }
        let startedBeforeCall = flushCounter
        while let running = inFlight {
            flushWaiterCount += 1
            defer { flushWaiterCount -= 1 }
            let report = await Self.waitCancellingOnCancel(running.task)
            if running.id > startedBeforeCall, running.scope == nil || running.scope == destination {
                return report
            }
            if Task.isCancelled { return QueueFlushReport() }
        }
        guard !isStopped, !Task.isCancelled else { return QueueFlushReport() }
        return await Self.waitCancellingOnCancel(startFlush(destination: destination))
    }

    /// Delivers the pending events of every registered destination of `provider` (see
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

    /// Whether `error` judges the events of the batch themselves, so that sending them again cannot
    /// succeed: a 4xx answer other than 401, 403, 407 (credentials), 408, 425 and 429 (timing), or an
    /// `.invalidInput` or `.encoding` failure. These are the only failures for which the queue drops
    /// events. Everything else (no network, a timeout, a 5xx, a rate limit, a refused or missing
    /// credential, a cancelled request, an error of another type) keeps them for a later flush.
    ///
    /// Deliverers that report per-event outcomes (`PartialDeliveryError`) use it to decide which events
    /// were rejected.
    public static func isRejection(_ error: any Error) -> Bool {
        guard let error = error as? EngageError, !error.isRetryable, error.code != .cancelled else { return false }
        if error.code == .invalidInput || error.code == .encoding { return true }
        guard let status = error.httpStatus, (400..<500).contains(status) else { return false }
        return ![401, 403, 407, 408, 425, 429].contains(status)
    }

    /// The task's value; cancelling the waiting task cancels `task` too.
    private static func waitCancellingOnCancel(_ task: Task<QueueFlushReport, Never>) async -> QueueFlushReport {
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// Starts a flush now and returns its task; the caller has made sure none is running.
    func startFlush(destination: String?) -> Task<QueueFlushReport, Never> {
        flushCounter += 1
        let id = flushCounter
        let task = Task { await self.runFlush(id: id, destination: destination) }
        inFlight = (id, destination, task)
        return task
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
        await dropExpired(destination: destination, now: now, into: &report)
        for name in scope {
            guard !Task.isCancelled else { break }
            guard let deliverer = deliverers[name] else {
                logger.debug("No deliverer registered for analytics destination", metadata: ["destination": "\(name)"])
                continue
            }
            await flush(name, deliverer: deliverer, now: now, into: &report)
        }
        do {
            report.remaining = try await pendingCount(destination: destination)
        } catch {
            logger.error("Analytics queue could not be counted", metadata: ["error": "\(error)"])
        }
        return report
    }

    private func flush(_ destination: String, deliverer: any QueueDelivering, now: Date, into report: inout QueueFlushReport) async {
        let pause: DestinationPause?
        do {
            pause = try await self.pause(of: destination)
        } catch {
            report.failures[destination] = storageFailure("read the back-off of", destination, error)
            return
        }
        // A pause further ahead than the longest one the queue sets means the wall clock was set back
        // since: the destination is tried now rather than in a day.
        let horizon = now.adding(max(policy.maxRetryDelay, policy.maxRetryAfter)).addingTimeInterval(1)
        if let pause, pause.notBefore > now, pause.notBefore <= horizon { return }
        // A damaged row can hold any count: read below zero as none (the increment below saturates).
        var failures = max(0, pause?.failures ?? 0)
        var lastID: Int64 = 0
        while !Task.isCancelled {
            // Checked before every batch: a switched-off provider's events stay queued (until it is
            // switched back on, or purged), and switching off stops a running flush at the next batch.
            if let consent, !consent.allows(destination: destination) { return }
            let batch: [QueuedEvent]
            do {
                batch = try await nextBatch(destination, after: lastID, now: now)
            } catch {
                report.failures[destination] = storageFailure("read", destination, error)
                return
            }
            guard let last = batch.last else { return }
            lastID = last.id
            let outcome: BatchOutcome
            do {
                try await deliverer.deliver(batch)
                outcome = BatchOutcome(delivered: batch)
            } catch let partial as PartialDeliveryError {
                outcome = BatchOutcome(partial, batch: batch)
            } catch {
                // The flush itself was cancelled: the outcome is unknown, leave the events as they are.
                if Task.isCancelled { return }
                outcome = BatchOutcome(error, batch: batch)
            }
            guard await removeDelivered(outcome.delivered, destination: destination, into: &report) else { return }
            guard await dropRejected(outcome.rejected, destination: destination, into: &report) else { return }
            if !outcome.delivered.isEmpty, failures > 0 {
                failures = 0
                guard await setPause(nil, of: destination, into: &report) else { return }
            }
            if let failure = outcome.failure {
                guard !Task.isCancelled else { return }
                // Kept in order, and the destination pauses: nothing after them is sent before them.
                failures = failures == .max ? .max : failures + 1
                // The pause starts now, when the destination failed: the flush may have spent minutes on
                // the destinations before it.
                await keep(outcome.kept, after: failure, failures: failures, destination: destination, now: clock.now, into: &report)
                return
            }
            if let resumeAfter = outcome.resumeAfter { lastID = resumeAfter }
        }
    }

    /// What became of one batch.
    private struct BatchOutcome {
        /// Accepted: removed.
        var delivered: [QueuedEvent] = []
        /// Refused for good: dropped and reported, each with its reason.
        var rejected: [(QueuedEvent, EngageError)] = []
        /// Kept because of `failure`, a failure that says nothing about them (tried ones are charged an
        /// attempt; untried ones are not).
        var kept: (tried: [QueuedEvent], untried: [QueuedEvent]) = ([], [])
        /// Why the destination must pause, if it must.
        var failure: EngageError?
        /// Where the next batch starts after a batch that went on without a pause (its untried events
        /// go again).
        var resumeAfter: Int64?

        init(delivered: [QueuedEvent]) {
            self.delivered = delivered
        }

        /// A whole batch failed with `error`.
        init(_ error: any Error, batch: [QueuedEvent]) {
            let failure = BatchOutcome.classify(error)
            if DurableQueue.isRejection(failure) {
                rejected = batch.map { ($0, failure) }
            } else {
                kept = (batch, [])
                self.failure = failure
            }
        }

        /// Per-event outcomes of a deliverer that sends events one by one.
        init(_ partial: PartialDeliveryError, batch: [QueuedEvent]) {
            delivered = batch.filter { partial.deliveredIDs.contains($0.id) }
            rejected = batch.compactMap { event in partial.rejections[event.id].map { (event, $0) } }
            let rest = batch.filter { !partial.deliveredIDs.contains($0.id) && partial.rejections[$0.id] == nil }
            let untried = rest.filter { partial.untriedIDs.contains($0.id) }
            let tried = rest.filter { !partial.untriedIDs.contains($0.id) }
            let failure = BatchOutcome.classify(partial.failure)
            if !tried.isEmpty, DurableQueue.isRejection(failure) {
                rejected += tried.map { ($0, failure) }
                if let first = untried.first { resumeAfter = first.id - 1 }
            } else if !tried.isEmpty || (delivered.isEmpty && rejected.isEmpty) {
                // A failure that says nothing about the events; or no progress at all, which must
                // pause too, or the loop would not move on.
                kept = (tried, untried)
                self.failure = failure
            } else if let first = untried.first {
                resumeAfter = first.id - 1
            }
        }

        /// Unknown errors and cancelled requests might be transient: keep the events rather than lose them.
        private static func classify(_ error: any Error) -> EngageError {
            let wrapped = EngageError.wrapping(error)
            return !(error is EngageError) || wrapped.code == .cancelled ? wrapped.markedRetryable() : wrapped
        }
    }

    /// Deletes events a deliverer refused for good and reports each through `onDrop` with its reason;
    /// `false` (with the failure reported) if the database refused.
    private func dropRejected(
        _ rejected: [(QueuedEvent, EngageError)], destination: String, into report: inout QueueFlushReport
    ) async -> Bool {
        guard !rejected.isEmpty else { return true }
        guard await delete(rejected.map(\.0.id), destination: destination, action: "drop rejected events of", into: &report) else {
            return false
        }
        report.dropped += rejected.count
        report.failures[destination] = rejected[rejected.count - 1].1
        logger.warning(
            "Analytics events rejected and dropped",
            metadata: ["destination": "\(destination)", "count": "\(rejected.count)", "error": "\(rejected[0].1.description)"]
        )
        // One report per distinct error, in the order of the events.
        var groups: [(error: EngageError, keys: [String])] = []
        for (event, error) in rejected {
            if let index = groups.indices.last, groups[index].error.code == error.code, groups[index].error.message == error.message {
                groups[index].keys.append(event.idempotencyKey)
            } else {
                groups.append((error, [event.idempotencyKey]))
            }
        }
        for group in groups {
            onDrop(QueueDropReport(destination: destination, reason: .rejected, idempotencyKeys: group.keys, error: group.error))
        }
        return true
    }

    /// Deletes delivered events; `false` (with the failure reported) if the database refused.
    private func removeDelivered(_ events: [QueuedEvent], destination: String, into report: inout QueueFlushReport) async -> Bool {
        guard !events.isEmpty else { return true }
        // On failure they are delivered but still stored: they may be sent again (with the same idempotency keys).
        guard await delete(events.map(\.id), destination: destination, action: "remove delivered events of", into: &report) else {
            return false
        }
        report.delivered += events.count
        return true
    }

    /// Deletes the events `ids`; `false` (with the failure to `action` reported) if the database refused.
    private func delete(_ ids: [Int64], destination: String, action: String, into report: inout QueueFlushReport) async -> Bool {
        do {
            try await record { db in
                try db.execute(literal: "DELETE FROM engage_queue WHERE id IN \(ids)")
            }
            return true
        } catch {
            report.failures[destination] = storageFailure(action, destination, error)
            return false
        }
    }

    /// Keeps the events of a failed batch and pauses their destination from `now`, the time of the
    /// failure: for the back-off after `failures` failures in a row, or the server's `Retry-After`
    /// (capped), whichever is longer. Tried
    /// events are charged an attempt (for the deliverer's information; it never drops them).
    private func keep(
        _ kept: (tried: [QueuedEvent], untried: [QueuedEvent]), after failure: EngageError, failures: Int, destination: String, now: Date,
        into report: inout QueueFlushReport
    ) async {
        report.failures[destination] = failure
        var delay = policy.retryDelay(afterFailures: failures, fraction: random.nextFraction())
        if let retryAfter = failure.retryAfter {
            delay = max(delay, min(retryAfter, policy.maxRetryAfter))
        }
        let pause = DestinationPause(failures: failures, notBefore: now.adding(delay))
        let tried = kept.tried.map(\.id)
        do {
            try await record { db in
                if !tried.isEmpty {
                    try db.execute(literal: "UPDATE engage_queue SET attempts = attempts + 1 WHERE id IN \(tried)")
                }
                try Self.store(pause, of: destination, in: db)
            }
        } catch {
            report.failures[destination] = storageFailure("pause", destination, error)
            return
        }
        report.retried += kept.tried.count + kept.untried.count
        logger.warning(
            "Analytics delivery failed; the events are kept",
            metadata: [
                "destination": "\(destination)", "events": "\(kept.tried.count + kept.untried.count)", "error": "\(failure.description)",
                "failures_in_a_row": "\(failures)", "paused_s": "\(Int(delay.seconds.rounded(.up)))",
            ]
        )
    }

    /// Writes what a delivery attempt changed. It is not cancelled with the flush: once a destination
    /// has answered, its verdict is stored (a cancelled GRDB write would leave delivered events queued
    /// to be sent again).
    private func record(_ updates: @escaping @Sendable (Database) throws -> Void) async throws {
        let writer = self.writer
        try await Task { try await writer.write(updates) }.value
    }

    /// A destination's back-off, as stored.
    struct DestinationPause: Sendable {
        /// Failed deliveries in a row.
        var failures: Int
        /// Not tried before this time.
        var notBefore: Date
    }

    /// The stored back-off of `destination`, `nil` when it is not backing off (or its row cannot be
    /// read: a damaged row must not stop the destination for good).
    func pause(of destination: String) async throws -> DestinationPause? {
        try await writer.read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT failures, not_before FROM engage_queue_destinations WHERE destination = ?", arguments: [destination]
                )
            else { return nil }
            guard let failures = try? row.decode(Int.self, forColumn: "failures"),
                let notBefore = try? row.decode(Double.self, forColumn: "not_before")
            else { return nil }
            return DestinationPause(failures: failures, notBefore: Date(timeIntervalSince1970: notBefore))
        }
    }

    /// Stores (or with `nil` clears) the back-off of `destination`; `false` (with the failure reported)
    /// if the database refused.
    private func setPause(_ pause: DestinationPause?, of destination: String, into report: inout QueueFlushReport) async -> Bool {
        do {
            try await record { db in try Self.store(pause, of: destination, in: db) }
            return true
        } catch {
            report.failures[destination] = storageFailure("store the back-off of", destination, error)
            return false
        }
    }

    private static func store(_ pause: DestinationPause?, of destination: String, in db: Database) throws {
        guard let pause else {
            try db.execute(sql: "DELETE FROM engage_queue_destinations WHERE destination = ?", arguments: [destination])
            return
        }
        try db.execute(
            sql: """
                INSERT INTO engage_queue_destinations (destination, failures, not_before) VALUES (?, ?, ?)
                ON CONFLICT (destination) DO UPDATE SET failures = excluded.failures, not_before = excluded.not_before
                """,
            arguments: [destination, pause.failures, pause.notBefore.timeIntervalSince1970]
        )
    }

    /// Drops the events (of `destination`, or of all when `nil`) enqueued more than `maxEventAge` before
    /// `now`, reporting them as `.expired`.
    private func dropExpired(destination: String?, now: Date, into report: inout QueueFlushReport) async {
        let cutoff = now.timeIntervalSince1970 - policy.maxEventAge.seconds
        let expired: [(destination: String, key: String)]
        do {
            let condition = destination == nil ? "created_at < ?" : "created_at < ? AND destination = ?"
            let arguments: StatementArguments = destination.map { [cutoff, $0] } ?? [cutoff]
            // Almost every flush finds nothing expired: ask in a read, which never waits for the writer
            // (an enqueue), and take the write lock only when there is something to drop.
            let any = try await writer.read { db in
                try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM engage_queue WHERE \(condition))", arguments: arguments) ?? false
            }
            guard any else { return }
            expired = try await writer.write { db in
                let rows = try Row.fetchAll(
                    db, sql: "SELECT destination, idempotency_key FROM engage_queue WHERE \(condition)", arguments: arguments)
                guard !rows.isEmpty else { return [] }
                try db.execute(sql: "DELETE FROM engage_queue WHERE \(condition)", arguments: arguments)
                return rows.map { row in
                    // Dropped either way: a damaged cell only makes the report less precise.
                    (
                        (try? row.decode(String.self, forColumn: "destination")) ?? "unknown",
                        (try? row.decode(String.self, forColumn: "idempotency_key")) ?? ""
                    )
                }
            }
        } catch {
            report.failures[destination ?? "*"] = storageFailure("drop expired events of", destination ?? "every destination", error)
            return
        }
        guard !expired.isEmpty else { return }
        report.dropped += expired.count
        var order: [String] = []
        var keys: [String: [String]] = [:]
        for (name, key) in expired {
            if keys[name] == nil { order.append(name) }
            keys[name, default: []].append(key)
        }
        for name in order {
            logger.warning(
                "Analytics events older than the queue's maxEventAge dropped undelivered",
                metadata: [
                    "destination": "\(name)", "count": "\(keys[name]?.count ?? 0)",
                    "max_age_days": "\(Int(policy.maxEventAge.seconds / 86_400))",
                ]
            )
            onDrop(QueueDropReport(destination: name, reason: .expired, idempotencyKeys: keys[name] ?? []))
        }
    }

    /// The next events of `destination` after `lastID`. Rows that cannot be read (a NULL or mistyped
    /// cell) are moved aside into `engage_damaged_rows` and reported through `onDrop` (`.damaged`)
    /// instead of trapping at every launch or blocking the queue.
    private func nextBatch(_ destination: String, after lastID: Int64, now: Date) async throws -> [QueuedEvent] {
        let limit = policy.batchSize
        let (events, damaged) = try await writer.read { db -> ([QueuedEvent], [DamagedEvent]) in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT id, destination, idempotency_key, payload, created_at, attempts FROM engage_queue
                    WHERE destination = ? AND id > ? ORDER BY id LIMIT ?
                    """,
                arguments: [destination, lastID, limit]
            )
            var events: [QueuedEvent] = []
            var damaged: [DamagedEvent] = []
            for row in rows {
                do {
                    events.append(
                        QueuedEvent(
                            id: try row.decode(forColumn: "id"), destination: try row.decode(forColumn: "destination"),
                            idempotencyKey: try row.decode(forColumn: "idempotency_key"), payload: try row.decode(forColumn: "payload"),
                            createdAt: Date(timeIntervalSince1970: try row.decode(forColumn: "created_at")),
                            attempts: try row.decode(forColumn: "attempts")
                        ))
                } catch {
                    // `id` is the table's INTEGER PRIMARY KEY: SQLite keeps it an integer whatever happened.
                    guard let id: Int64 = try? row.decode(forColumn: "id") else { throw error }
                    damaged.append(DamagedEvent(id: id, key: try? row.decode(forColumn: "idempotency_key"), error: error))
                }
            }
            return (events, damaged)
        }
        if !damaged.isEmpty { try await moveAside(damaged, destination: destination, now: now) }
        return events
    }

    /// A queued row that could not be read.
    private struct DamagedEvent: Sendable {
        var id: Int64
        var key: String?
        var error: any Error
    }

    private func moveAside(_ damaged: [DamagedEvent], destination: String, now: Date) async throws {
        let ids = damaged.map(\.id)
        try await writer.write { db in
            _ = try DamagedRows.moveAside(
                db, from: QueueSchema.table,
                columns: ["id", "destination", "idempotency_key", "payload", "created_at", "attempts"],
                where: "id IN (\(ids.map { _ in "?" }.joined(separator: ", ")))", arguments: StatementArguments(ids), at: now
            )
        }
        let failure = EngageError(
            .storage,
            "\(damaged.count) queued event(s) of '\(destination)' could not be read (a NULL or mistyped cell) and were moved aside to \(DamagedRows.table).",
            underlyingError: damaged[0].error
        )
        logger.error("Damaged analytics queue rows moved aside", metadata: ["destination": "\(destination)", "count": "\(damaged.count)"])
        onDrop(
            QueueDropReport(
                destination: destination, reason: .damaged, idempotencyKeys: damaged.map { $0.key ?? "damaged-row-\($0.id)" },
                error: failure))
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
