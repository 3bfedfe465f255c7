import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension SizeLimitingSessionDelegate {
    /// Checks the transfer `id` after `delay` and abandons it with `.timeout` if it has shown no sign
    /// of life for its allowed silence (``stallLimit`` of its timeout); a transfer that is still moving is checked again
    /// when it could next have stalled, and a finished one is forgotten.
    ///
    /// URLSession enforces the timeout itself, so this is a backstop: FoundationNetworking on Linux has
    /// lost the completion of a task (its timer belongs to an object that can be gone by then), which
    /// would leave the caller waiting forever. One timer is pending per transfer in flight.
    func watch(_ task: URLSessionTask, id: Int, after delay: Duration) {
        watchdogQueue.asyncAfter(deadline: .now() + delay.seconds) { [weak self] in
            self?.checkForStall(task, id: id)
        }
    }

    private enum StallCheck {
        case finished
        case moving(nextCheckIn: Duration)
        case stalled(silentFor: Duration)
    }

    private func checkForStall(_ task: URLSessionTask, id: Int) {
        let check = transfers.withLock { transfers -> StallCheck in
            guard let transfer = transfers[id] else { return .finished }
            let silence = ContinuousClock.now - transfer.lastActivity
            let allowed = transfer.allowedSilence
            return silence >= allowed ? .stalled(silentFor: silence) : .moving(nextCheckIn: allowed - silence)
        }
        switch check {
        case .finished:
            return
        case .moving(let delay):
            watch(task, id: id, after: delay)
        case .stalled(let silence):
            let error = EngageError(
                .timeout, "No answer arrived for \(Int(silence.seconds.rounded())) s; the request was abandoned.",
                isRetryable: true, recoverySuggestion: "Check the connection and try again."
            )
            abandon(task, id: id, with: error)
        }
    }
}
