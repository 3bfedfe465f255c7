@_spi(EngageProvider) import EngageCore

extension RequestJournal {
    /// A caller of `waitForEntries` that is still waiting.
    struct Waiter {
        var count: Int
        var emulatorID: String?
        var continuation: CheckedContinuation<[JournalEntry], any Error>
        var timeoutTask: Task<Void, Never>?
    }

    /// The lock-protected state. Entries before `start` are logically dropped; they are compacted
    /// away in bulk so that recording stays O(1) amortised at capacity.
    struct State {
        var entries: [JournalEntry] = []
        var start = 0
        var nextSequence = 0
        var nextWaiterID = 0
        var waiters: [Int: Waiter] = [:]
        var cancelledWaiterIDs: Set<Int> = []

        func matching(emulatorID: String?) -> [JournalEntry] {
            let kept = entries[start...]
            guard let emulatorID else { return Array(kept) }
            return kept.filter { $0.emulatorID == emulatorID }
        }

        /// Removes and returns the waiters the current entries satisfy, with what each receives.
        mutating func takeSatisfiedWaiters() -> [(CheckedContinuation<[JournalEntry], any Error>, [JournalEntry])] {
            guard !waiters.isEmpty else { return [] }
            var satisfied: [(CheckedContinuation<[JournalEntry], any Error>, [JournalEntry])] = []
            for (id, waiter) in waiters {
                let matches = matching(emulatorID: waiter.emulatorID)
                if matches.count >= waiter.count {
                    waiters[id] = nil
                    waiter.timeoutTask?.cancel()
                    satisfied.append((waiter.continuation, matches))
                }
            }
            return satisfied
        }
    }
}
