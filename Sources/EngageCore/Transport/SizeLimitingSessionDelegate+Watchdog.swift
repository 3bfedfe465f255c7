import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension SizeLimitingSessionDelegate {
    /// Checks the transfer `id` after `delay` and abandons it with `.timeout` if it has shown no sign
    /// of life for its allowed silence (``stallLimit`` of its timeout) or its call's deadline has
    /// passed, however much it is still moving (a server trickling bytes); a transfer that is still
    /// moving is checked again when it could next have stalled or reach its deadline, and a finished one
    /// is forgotten.
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
        case pastDeadline
    }

    private func checkForStall(_ task: URLSessionTask, id: Int) {
        let check = transfers.withLock { transfers -> StallCheck in
            guard let transfer = transfers[id] else { return .finished }
            let now = ContinuousClock.now
            if let deadline = transfer.deadline, now >= deadline { return .pastDeadline }
            let silence = now - transfer.lastActivity
            let allowed = transfer.allowedSilence
            guard silence < allowed else { return .stalled(silentFor: silence) }
            let untilDeadline = transfer.deadline.map { $0 - now } ?? allowed
            return .moving(nextCheckIn: min(allowed - silence, untilDeadline))
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
        case .pastDeadline:
            abandon(
                task, id: id,
                with: EngageError(
                    .timeout, "The call reached its deadline while the answer was still arriving; it was abandoned.",
                    isRetryable: true, recoverySuggestion: "Check the connection and try again."
                ))
        }
    }
}
