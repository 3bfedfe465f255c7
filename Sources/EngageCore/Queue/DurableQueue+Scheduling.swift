import Logging

extension DurableQueue {
    /// Starts flushing every `flushInterval` (measured with the injected clock) until `stop()`.
    /// Calling it again while running does nothing.
    ///
    /// While automatic flushing runs, enqueueing a full batch's worth of events also schedules a flush
    /// soon (`scheduleFlushSoon()`).
    public func startAutomaticFlush() {
        guard automaticTask == nil else { return }
        let clock = self.clock
        let interval = policy.flushInterval
        automaticTask = Task { [weak self] in
            while !Task.isCancelled {
                do {
                    try await clock.sleep(for: interval)
                } catch {
                    return
                }
                guard let queue = self else { return }
                await queue.flush()
            }
        }
    }

    /// Schedules one flush after `delay`; calls made while one is scheduled are merged into it.
    public func scheduleFlushSoon(after delay: Duration = .seconds(1)) {
        guard soonTask == nil else { return }
        let clock = self.clock
        soonTask = Task { [weak self] in
            do {
                try await clock.sleep(for: delay)
            } catch {
                return
            }
            await self?.runScheduledFlush()
        }
    }

    /// Stops automatic and scheduled flushing, and waits for a running flush to finish.
    public func stop() async {
        automaticTask?.cancel()
        automaticTask = nil
        soonTask?.cancel()
        soonTask = nil
        if let running = inFlight {
            _ = await running.task.value
        }
    }

    /// Whether automatic flushing is running.
    public var isAutomaticFlushRunning: Bool {
        automaticTask != nil
    }

    func noteEnqueued(_ count: Int) {
        guard automaticTask != nil else { return }
        enqueuedSinceFlush += count
        if enqueuedSinceFlush >= policy.batchSize {
            scheduleFlushSoon()
        }
    }

    private func runScheduledFlush() async {
        soonTask = nil
        await flush()
    }
}
