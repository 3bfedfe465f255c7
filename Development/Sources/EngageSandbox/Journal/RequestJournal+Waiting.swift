@_spi(EngageProvider) import EngageCore

extension RequestJournal {
    /// Waits until the journal holds at least `count` entries (for `emulatorID`, or for any emulator
    /// when `nil`) and returns all of them, oldest first.
    ///
    /// Returns at once when enough entries are already there; otherwise it suspends (no polling)
    /// until ``record(_:)`` adds the missing ones.
    /// - Throws: ``SandboxError/journalTimeout(expected:actual:)`` after `timeout`, or
    ///   `CancellationError` when the calling task is cancelled.
    public func waitForEntries(count: Int, emulatorID: String? = nil, timeout: Duration) async throws -> [JournalEntry] {
        let id = state.withLock { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                register(id: id, count: count, emulatorID: emulatorID, timeout: timeout, continuation: continuation)
            }
        } onCancel: {
            finishWaiter(id: id, with: CancellationError(), rememberIfMissing: true)
        }
    }

    private func register(
        id: Int, count: Int, emulatorID: String?, timeout: Duration,
        continuation: CheckedContinuation<[JournalEntry], any Error>
    ) {
        enum Outcome {
            case ready([JournalEntry])
            case cancelled
            case waiting
        }
        let outcome = state.withLock { state -> Outcome in
            if state.cancelledWaiterIDs.remove(id) != nil { return .cancelled }
            let matches = state.matching(emulatorID: emulatorID)
            if matches.count >= count { return .ready(matches) }
            state.waiters[id] = Waiter(count: count, emulatorID: emulatorID, continuation: continuation)
            return .waiting
        }
        switch outcome {
        case .ready(let entries):
            continuation.resume(returning: entries)
        case .cancelled:
            continuation.resume(throwing: CancellationError())
        case .waiting:
            let timeoutTask = Task { [weak self] in
                try? await Task.sleep(for: timeout)
                guard !Task.isCancelled, let self else { return }
                let actual = self.state.withLock { $0.matching(emulatorID: emulatorID).count }
                self.finishWaiter(
                    id: id, with: SandboxError.journalTimeout(expected: count, actual: actual), rememberIfMissing: false
                )
            }
            let keep = state.withLock { state -> Bool in
                guard state.waiters[id] != nil else { return false }
                state.waiters[id]?.timeoutTask = timeoutTask
                return true
            }
            if !keep { timeoutTask.cancel() }
        }
    }

    /// Resumes waiter `id` with `error` if it is still waiting. When it has not registered yet and
    /// `rememberIfMissing` is set (cancellation racing registration), registration will fail it.
    private func finishWaiter(id: Int, with error: any Error, rememberIfMissing: Bool) {
        let waiter = state.withLock { state -> Waiter? in
            if let waiter = state.waiters.removeValue(forKey: id) { return waiter }
            if rememberIfMissing { state.cancelledWaiterIDs.insert(id) }
            return nil
        }
        waiter?.timeoutTask?.cancel()
        waiter?.continuation.resume(throwing: error)
    }
}
