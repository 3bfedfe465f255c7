/// Keeps a current value and hands every change to its subscribers, in order: the source of
/// `engage.stateUpdates` and of the providers' observable models.
///
/// Subscribers get the current value first, then one value per change; a subscriber that falls
/// behind gets the newest (the buffer holds one). Updates that leave the value equal are not sent.
package final class StateBroadcaster<Value: Sendable & Equatable>: Sendable {
    private struct State {
        var value: Value
        var subscribers: [UInt64: AsyncStream<Value>.Continuation] = [:]
        var nextID: UInt64 = 0
        var isFinished = false
    }

    private let state: Locked<State>

    /// A broadcaster whose value is `initial`.
    package init(_ initial: Value) {
        state = Locked(State(value: initial))
    }

    /// The current value.
    package var value: Value { state.withLock { $0.value } }

    /// How many sequences are open (tests wait for a subscriber before changing the value).
    package var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Applies `change`; subscribers get the new value when it differs.
    package func update(_ change: (inout Value) -> Void) {
        state.withLock { state in
            var value = state.value
            change(&value)
            guard value != state.value else { return }
            state.value = value
            // Yielded under the lock so that subscribers see changes in the order they happened.
            for continuation in state.subscribers.values { continuation.yield(value) }
        }
    }

    /// A sequence starting with the current value, then one per change. It ends when the
    /// broadcaster finishes.
    package func updates() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state -> UInt64? in
            guard !state.isFinished else { return nil }
            state.nextID += 1
            state.subscribers[state.nextID] = continuation
            continuation.yield(state.value)
            return state.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Ends every sequence; later ones end at once.
    package func finish() {
        let subscribers = state.withLock { state in
            state.isFinished = true
            defer { state.subscribers = [:] }
            return state.subscribers
        }
        for continuation in subscribers.values { continuation.finish() }
    }
}
