import Logging

extension DurableQueue {
    /// Starts flushing every `flushInterval` (measured with the injected clock) until `stop()`.
    /// Calling it again while running, or after `stop()`, does nothing.
    ///
    /// While automatic flushing runs, enqueueing a full batch's worth of events also schedules a flush
    /// soon (`scheduleFlushSoon()`).
    public func startAutomaticFlush() {
        guard automaticTask == nil, !isStopped else { return }
        let clock = self.clock
        let interval = policy.flushInterval
        automaticTask = Task { [weak self] in
            while !Task.isCancelled {
                do {
                    try await clock.sleep(for: interval)
                } catch {
                    return
                }
                // Woken and cancelled at once: `stop()` ran, so do not start a flush.
                guard !Task.isCancelled, let queue = self else { return }
                await queue.flush()
            }
        }
    }

    /// Schedules one flush after `delay` (1 s by default, on the injected clock); calls made while one
    /// is scheduled are merged into it, and calls after `stop()` do nothing.
    public func scheduleFlushSoon(after delay: Duration = .seconds(1)) {
        guard soonTask == nil, !isStopped else { return }
        let clock = self.clock
        soonTask = Task { [weak self] in
            do {
                try await clock.sleep(for: delay)
            } catch {
                return
            }
            guard !Task.isCancelled else { return }
            await self?.runScheduledFlush()
        }
    }

    /// Stops the queue for good: automatic and scheduled flushing end, a running flush is waited for
    /// (up to `deadline`), and no flush starts afterwards (`flush()` then returns an empty report at
    /// once).
    ///
    /// - Parameters:
    ///   - flushFirst: Whether to run one last flush of every registered destination once the running
    ///     flush (if any) has finished, before the queue stops. The registry's shutdown uses it while
    ///     the providers' deliverers are still registered.
    ///   - deadline: The longest wait, measured on the queue's clock, for the running flush and then
    ///     for the last one (each). A flush still running then is cancelled and no longer waited for:
    ///     its batch in flight is abandoned and its events stay queued for the next launch.
    /// - Returns: The report of the last flush when `flushFirst` is `true`, the queue was not stopped
    ///   already and the flush finished in time, else `nil`.
    @discardableResult
    public func stop(flushFirst: Bool = false, deadline: Duration = .seconds(5)) async -> QueueFlushReport? {
        automaticTask?.cancel()
        automaticTask = nil
        soonTask?.cancel()
        soonTask = nil
        let wasStopped = isStopped
        isStopped = true
        if let running = inFlight {
            await Self.wait(for: running.task, upTo: deadline, on: clock)
        }
        guard flushFirst, !wasStopped, inFlight == nil else { return nil }
        return await Self.wait(for: startFlush(destination: nil), upTo: deadline, on: clock)
    }

    /// The task's report, or `nil` when it has not finished after `deadline` on `clock`: it is then
    /// cancelled (its batch in flight is abandoned, its events stay queued) and no longer waited for.
    /// Cancelling the waiting task cancels `task` too.
    @discardableResult
    private static func wait(
        for task: Task<QueueFlushReport, Never>, upTo deadline: Duration, on clock: any EngageClock
    ) async -> QueueFlushReport? {
        let outcome = Locked<CheckedContinuation<QueueFlushReport?, Never>?>(nil)
        let finish = { @Sendable (report: QueueFlushReport?) in
            outcome.withLock { continuation -> CheckedContinuation<QueueFlushReport?, Never>? in
                defer { continuation = nil }
                return continuation
            }?.resume(returning: report)
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<QueueFlushReport?, Never>) in
                outcome.withLock { $0 = continuation }
                let timer = Task {
                    guard (try? await clock.sleep(for: deadline)) != nil else { return }
                    task.cancel()
                    finish(nil)
                }
                Task {
                    finish(await task.value)
                    timer.cancel()
                }
            }
        } onCancel: {
            task.cancel()
            finish(nil)
        }
    }

    /// Whether a flush scheduled by `scheduleFlushSoon` has not started yet (for tests that must wait
    /// for the flush a provider schedules at start before they count deliveries).
    package var hasScheduledFlush: Bool {
        soonTask != nil
    }

    /// Whether automatic flushing is running.
    public var isAutomaticFlushRunning: Bool {
        automaticTask != nil
    }

    nonisolated func noteEnqueued(_ count: Int) {
        let batchSize = policy.batchSize
        let batchReady = enqueuedSinceFlush.withLock { value -> Bool in
            value += count
            guard value >= batchSize else { return false }
            value = 0
            return true
        }
        // Only a full batch's worth costs a hop to the actor.
        guard batchReady else { return }
        Task { await self.scheduleFlushIfAutomatic() }
    }

    private func scheduleFlushIfAutomatic() {
        guard automaticTask != nil else { return }
        scheduleFlushSoon()
    }

    private func runScheduledFlush() async {
        soonTask = nil
        await flush()
    }
}
