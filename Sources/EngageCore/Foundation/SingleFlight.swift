/// One run of an operation, shared by every caller that asks for it while it runs: the project's one
/// single-flight (token refreshes, logins, device registrations, opening a directory).
///
/// The run is its own task: a caller that stops waiting (cancelled, timed out) does not stop it for
/// the others, and the run clears its slot when it ends, so a caller that leaves early can never let a
/// second run start beside the first. A slot holds one run at a time; ``detach()`` lets a newer state
/// (another session, a reset) start a fresh run while the old one finishes for those already waiting.
///
/// ```swift
/// let flight = registrations.run { _ in try await self.register() }
/// return try await flight.task.valueUnlessCancelled(providerID: .warply)
/// ```
package final class SingleFlight<Value: Sendable>: Sendable {
    /// A run and whether the caller joined it (rather than started it).
    package struct Flight: Sendable {
        /// The run's identity in this slot.
        package let id: UInt64
        /// The run.
        package let task: Task<Value, any Error>
        /// Whether the run was already in flight when the caller asked.
        package let joined: Bool
    }

    private struct State {
        var current: (id: UInt64, task: Task<Value, any Error>)?
        var lastID: UInt64 = 0
        var joinedCount = 0
    }

    private let state = Locked(State())

    package init() {}

    /// The run in flight, or a new run of `operation` (given its run's id), started now.
    package func run(_ operation: @escaping @Sendable (_ id: UInt64) async throws -> Value) -> Flight {
        state.withLock { state in
            if let flight = Self.join(&state) { return flight }
            state.lastID &+= 1
            let id = state.lastID
            let task = Task {
                defer { self.end(id) }
                return try await operation(id)
            }
            state.current = (id, task)
            return Flight(id: id, task: task, joined: false)
        }
    }

    /// The run in flight, if any.
    package var current: Task<Value, any Error>? {
        state.withLock { $0.current?.task }
    }

    /// The run in flight, joined, or `nil` when there is none (nothing is started).
    package func join() -> Flight? {
        state.withLock { Self.join(&$0) }
    }

    /// Joins the run in `state`, if there is one.
    private static func join(_ state: inout State) -> Flight? {
        guard let current = state.current else { return nil }
        state.joinedCount += 1
        return Flight(id: current.id, task: current.task, joined: true)
    }

    /// Stops sharing the run in flight (or only run `id`, when given and still in flight): the next
    /// caller starts a new run, and the old one goes on for those waiting. `true` when a run was
    /// detached.
    @discardableResult
    package func detach(_ id: UInt64? = nil) -> Bool {
        state.withLock { state in
            guard let current = state.current, id == nil || current.id == id else { return false }
            state.current = nil
            return true
        }
    }

    /// How many callers joined a run instead of starting one, since the slot was made (diagnostics and
    /// tests).
    package var joinedCount: Int {
        state.withLock { $0.joinedCount }
    }

    private func end(_ id: UInt64) {
        state.withLock { state in
            if state.current?.id == id { state.current = nil }
        }
    }
}
