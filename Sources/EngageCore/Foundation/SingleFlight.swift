/// Runs of an operation, one per key, each shared by every caller that asks for that key while it
/// runs: the project's one single-flight (token refreshes, host-token refreshes keyed by the token they
/// replace, logins, device registrations, opening and syncing a directory).
///
/// A run is its own task: a caller that stops waiting (cancelled, timed out) does not stop it for the
/// others, and the run clears its key's slot when it ends, so a caller that leaves early can never let
/// a second run of that key start beside the first. A key holds one run at a time; ``detach(_:id:)``
/// lets a newer state (another session, a reset, a run given up on) start a fresh run while the old
/// one finishes for those already waiting. Runs of different keys are independent.
///
/// ```swift
/// let flight = registrations.run { _ in try await self.register() }
/// return try await flight.task.valueUnlessCancelled(providerID: .warply)
/// ```
package final class KeyedSingleFlight<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// A run and whether the caller joined it (rather than started it).
    package struct Flight: Sendable {
        /// The run's identity among every run of this single-flight.
        package let id: UInt64
        /// The run.
        package let task: Task<Value, any Error>
        /// Whether the run was already in flight when the caller asked.
        package let joined: Bool
    }

    private struct State {
        var runs: [Key: (id: UInt64, task: Task<Value, any Error>)] = [:]
        var lastID: UInt64 = 0
        var joinedCount = 0
    }

    private let state = Locked(State())

    package init() {}

    /// The run of `key` in flight, or a new run of `operation` (given its run's id), started now.
    package func run(_ key: Key, _ operation: @escaping @Sendable (_ id: UInt64) async throws -> Value) -> Flight {
        state.withLock { state in
            if let flight = Self.join(key, &state) { return flight }
            state.lastID &+= 1
            let id = state.lastID
            let task = Task {
                defer { self.end(key, id) }
                return try await operation(id)
            }
            state.runs[key] = (id, task)
            return Flight(id: id, task: task, joined: false)
        }
    }

    /// The run of `key` in flight, if any (not counted as joined).
    package func current(_ key: Key) -> Task<Value, any Error>? {
        state.withLock { $0.runs[key]?.task }
    }

    /// The run of `key` in flight, joined, or `nil` when there is none (nothing is started).
    package func join(_ key: Key) -> Flight? {
        state.withLock { Self.join(key, &$0) }
    }

    /// Joins the run of `key` in `state`, if there is one.
    private static func join(_ key: Key, _ state: inout State) -> Flight? {
        guard let current = state.runs[key] else { return nil }
        state.joinedCount += 1
        return Flight(id: current.id, task: current.task, joined: true)
    }

    /// Stops sharing the run of `key` in flight (or only run `id`, when given and still in flight): the
    /// next caller starts a new run, and the old one goes on for those waiting. `true` when a run was
    /// detached.
    @discardableResult
    package func detach(_ key: Key, id: UInt64? = nil) -> Bool {
        state.withLock { state in
            guard let current = state.runs[key], id == nil || current.id == id else { return false }
            state.runs[key] = nil
            return true
        }
    }

    /// How many callers joined a run instead of starting one, since the single-flight was made
    /// (diagnostics and tests).
    package var joinedCount: Int {
        state.withLock { $0.joinedCount }
    }

    private func end(_ key: Key, _ id: UInt64) {
        state.withLock { state in
            if state.runs[key]?.id == id { state.runs[key] = nil }
        }
    }
}

/// The one key of a single-flight that runs one operation.
package struct SingleFlightSlot: Hashable, Sendable {}

/// A single-flight of one operation: ``KeyedSingleFlight`` with one key.
package typealias SingleFlight<Value: Sendable> = KeyedSingleFlight<SingleFlightSlot, Value>

extension KeyedSingleFlight where Key == SingleFlightSlot {
    /// The run in flight, or a new run of `operation` (given its run's id), started now.
    package func run(_ operation: @escaping @Sendable (_ id: UInt64) async throws -> Value) -> Flight {
        run(SingleFlightSlot(), operation)
    }

    /// The run in flight, if any.
    package var current: Task<Value, any Error>? { current(SingleFlightSlot()) }

    /// The run in flight, joined, or `nil` when there is none (nothing is started).
    package func join() -> Flight? { join(SingleFlightSlot()) }

    /// Stops sharing the run in flight (or only run `id`, when given and still in flight).
    @discardableResult
    package func detach(_ id: UInt64? = nil) -> Bool { detach(SingleFlightSlot(), id: id) }
}
