import EngageCore

/// The record of every request that reached an emulator of a ``SandboxHost``.
///
/// Thread-safe. It keeps the last ``capacity`` entries; older ones are dropped. Tests read it to
/// assert what the client really sent, and wait on it for asynchronous deliveries with
/// ``waitForEntries(count:emulatorID:timeout:)``.
public final class RequestJournal: Sendable {
    /// How many entries are kept at most.
    public let capacity: Int

    let state: Locked<State>

    /// Creates an empty journal.
    /// - Parameter capacity: The number of most recent entries kept (at least 1).
    public init(capacity: Int = 10_000) {
        self.capacity = max(1, capacity)
        self.state = Locked(State())
    }

    /// All kept entries, oldest first.
    public var entries: [JournalEntry] {
        state.withLock { Array($0.entries[$0.start...]) }
    }

    /// The kept entries addressed to `emulatorID`, oldest first.
    public func entries(for emulatorID: String) -> [JournalEntry] {
        state.withLock { $0.matching(emulatorID: emulatorID) }
    }

    /// The kept entries whose emulator-relative path is `path` (exact, or a prefix when `path` ends
    /// with `*`), oldest first.
    public func entries(matching path: String) -> [JournalEntry] {
        let pattern = PathPattern(path)
        return state.withLock { state in state.entries[state.start...].filter { pattern.matches($0.path) } }
    }

    /// The number of kept entries.
    public var count: Int {
        state.withLock { $0.entries.count - $0.start }
    }

    /// Removes every entry. Pending waiters keep waiting for new entries.
    public func clear() {
        state.withLock { state in
            state.entries.removeAll(keepingCapacity: true)
            state.start = 0
        }
    }

    /// Appends an entry, assigning its ``JournalEntry/sequence``, and wakes waiters it satisfies.
    /// - Returns: The entry as stored.
    @discardableResult
    public func record(_ entry: JournalEntry) -> JournalEntry {
        var entry = entry
        let satisfied = state.withLock { state -> [(CheckedContinuation<[JournalEntry], any Error>, [JournalEntry])] in
            state.nextSequence += 1
            entry.sequence = state.nextSequence
            state.entries.append(entry)
            if state.entries.count - state.start > capacity {
                state.start += 1
                if state.start >= capacity {
                    state.entries.removeFirst(state.start)
                    state.start = 0
                }
            }
            return state.takeSatisfiedWaiters()
        }
        for (continuation, entries) in satisfied {
            continuation.resume(returning: entries)
        }
        return entry
    }
}
