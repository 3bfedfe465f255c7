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

    /// Stops the queue for good: automatic and scheduled flushing end, a running flush is waited for,
    /// and no flush starts afterwards (`flush()` then returns an empty report at once).
    ///
    /// - Parameter flushFirst: Whether to run one last flush of every registered destination once the
    ///   running flush (if any) has finished, before the queue stops. The registry's shutdown uses it
    ///   while the providers' deliverers are still registered.
    /// - Returns: The report of the last flush when `flushFirst` is `true` and the queue was not
    ///   stopped already, else `nil`.
    @discardableResult
    public func stop(flushFirst: Bool = false) async -> QueueFlushReport? {
        automaticTask?.cancel()
        automaticTask = nil
        soonTask?.cancel()
        soonTask = nil
        let wasStopped = isStopped
        isStopped = true
        while let running = inFlight {
            _ = await running.task.value
        }
        guard flushFirst, !wasStopped else { return nil }
        return await startFlush(destination: nil)
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
