@_spi(EngageProvider) import EngageCore

/// Hands out `AsyncStream`s and yields each element to all of them: the live updates of
/// ``RequestJournal/updates()`` and ``FaultInjector/changes()``. After ``finish()`` every stream has
/// ended, and later subscribers get a stream that has already ended.
final class Broadcaster<Element: Sendable>: Sendable {
    private struct State {
        var continuations: [Int: AsyncStream<Element>.Continuation] = [:]
        var nextID = 0
        var isFinished = false
    }

    private let state = Locked(State())
    private let bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy

    /// A broadcaster whose streams buffer by `bufferingPolicy` for a slow reader.
    init(bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy) {
        self.bufferingPolicy = bufferingPolicy
    }

    /// A new stream of the elements yielded from now on; it ends when iteration stops or at ``finish()``.
    func subscribe() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: bufferingPolicy)
        let id = state.withLock { state -> Int? in
            guard !state.isFinished else { return nil }
            state.nextID += 1
            state.continuations[state.nextID] = continuation
            return state.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// Gives `element` to every live stream.
    func yield(_ element: Element) {
        for continuation in state.withLock({ Array($0.continuations.values) }) {
            continuation.yield(element)
        }
    }

    /// Ends every stream, now and for later subscribers.
    func finish() {
        let continuations = state.withLock { state in
            state.isFinished = true
            defer { state.continuations.removeAll() }
            return Array(state.continuations.values)
        }
        for continuation in continuations { continuation.finish() }
    }
}
