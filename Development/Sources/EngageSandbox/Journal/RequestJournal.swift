@_spi(EngageProvider) import EngageCore

/// The record of every request that reached an emulator of a ``SandboxHost``.
///
/// Thread-safe. It keeps the last ``capacity`` entries; older ones are dropped. Tests read it to
/// assert what the client really sent, and wait on it for asynchronous deliveries with
/// ``waitForEntries(count:emulatorID:timeout:)``.
public final class RequestJournal: Sendable {
    /// How many entries are kept at most.
    public let capacity: Int

    let state: Locked<State>
    private let subscribers = Broadcaster<JournalUpdate>(bufferingPolicy: .bufferingNewest(1_000))

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

    /// The kept entry numbered `sequence`, or `nil` when it was dropped or never existed.
    public func entry(sequence: Int) -> JournalEntry? {
        state.withLock { state in
            // Sequences are consecutive from the first kept entry (clear() keeps counting).
            guard let first = state.entries[state.start...].first else { return nil }
            let offset = sequence - first.sequence
            guard offset >= 0, state.start + offset < state.entries.count else { return nil }
            let entry = state.entries[state.start + offset]
            return entry.sequence == sequence ? entry : nil
        }
    }

    /// Removes every entry. Pending waiters keep waiting for new entries; subscribers of
    /// ``updates()`` receive ``JournalUpdate/cleared``.
    public func clear() {
        state.withLock { state in
            state.entries.removeAll(keepingCapacity: true)
            state.start = 0
        }
        subscribers.yield(.cleared)
    }

    /// Every entry recorded (and every clear) from now on, as they happen: what the sandbox UI streams
    /// to the browser. The stream ends when iteration stops or ``finishUpdates()`` runs (the host's
    /// `stop()`); a slow reader keeps the newest 1 000 updates.
    public func updates() -> AsyncStream<JournalUpdate> {
        subscribers.subscribe()
    }

    /// Ends every ``updates()`` stream, now and for later subscribers: the host calls it when it stops,
    /// so that open event streams do not hold the server's graceful shutdown.
    public func finishUpdates() {
        subscribers.finish()
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
        subscribers.yield(.recorded(entry))
        return entry
    }
}

/// A change of a ``RequestJournal``, as ``RequestJournal/updates()`` delivers it.
public enum JournalUpdate: Sendable, Hashable {
    /// A request was recorded.
    case recorded(JournalEntry)
    /// Every entry was removed.
    case cleared
}
