@_spi(EngageProvider) import EngageCore

/// A one-shot signal: the server task reports the bound port (or a failure) once, and `start()`
/// waits for it.
final class ListeningSignal: Sendable {
    private enum State {
        case pending([CheckedContinuation<Int, any Error>])
        case done(Result<Int, any Error>)
    }

    private let state = Locked<State>(.pending([]))

    /// Reports that the server listens on `port`; a missing port is reported as a failure.
    func succeed(port: Int?) {
        if let port {
            resolve(.success(port))
        } else {
            resolve(.failure(SandboxError.startFailed("The server did not report a bound port.")))
        }
    }

    /// Reports a failure; ignored when the signal was already resolved.
    func fail(_ error: any Error) {
        resolve(.failure(error))
    }

    /// Waits for the outcome.
    func wait() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let result = state.withLock { state -> Result<Int, any Error>? in
                switch state {
                case .pending(var waiters):
                    waiters.append(continuation)
                    state = .pending(waiters)
                    return nil
                case .done(let result):
                    return result
                }
            }
            if let result { continuation.resume(with: result) }
        }
    }

    private func resolve(_ result: Result<Int, any Error>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Int, any Error>] in
            guard case .pending(let waiters) = state else { return [] }
            state = .done(result)
            return waiters
        }
        for waiter in waiters { waiter.resume(with: result) }
    }
}
