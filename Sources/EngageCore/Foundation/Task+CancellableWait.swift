/// Waiting for shared work without being held by it.
extension Task where Failure == any Error {
    /// This task's value, or `.cancelled` as soon as the waiting task is cancelled. The task itself is
    /// not cancelled: other waiters still receive its value (a token refresh goes on for the callers
    /// who still want it, and its tokens are stored).
    ///
    /// `try await task.value` does not return until the task finishes, whatever happens to the caller.
    ///
    /// With a `timeout`, the wait also ends with a retryable `.timeout` once that much time has passed on
    /// its clock (again without cancelling the task: its owner decides).
    package func valueUnlessCancelled(
        providerID: ProviderID? = nil, timeout: (clock: any EngageClock, duration: Duration)? = nil
    ) async throws -> Success {
        let waiter = CancellableWaiter<Success>()
        let timer = timeout.map { timeout in
            Task<Void, Never> {
                guard (try? await timeout.clock.sleep(for: timeout.duration)) != nil else { return }
                waiter.finish(
                    with: .failure(
                        EngageError(
                            .timeout, "No answer after \(Int(timeout.duration.seconds)) s.", providerID: providerID, isRetryable: true
                        )))
            }
        }
        defer { timer?.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Success, any Error>) in
                guard waiter.install(continuation, providerID: providerID) else { return }
                Task<Void, Never> {
                    let result = await self.result
                    waiter.finish(with: result)
                }
            }
        } onCancel: {
            waiter.finish(with: .failure(EngageError(.cancelled, "The call was cancelled while it waited.", providerID: providerID)))
        }
    }
}

/// One continuation resumed exactly once: by the task's result or by the waiter's cancellation,
/// whichever comes first.
private final class CancellableWaiter<Value: Sendable>: Sendable {
    private enum State: Sendable {
        case waiting
        case installed(CheckedContinuation<Value, any Error>)
        case finished(Result<Value, any Error>?)
    }

    private let state = Locked<State>(.waiting)

    /// Installs the continuation; returns `false` (after resuming it) when the wait already ended.
    func install(_ continuation: CheckedContinuation<Value, any Error>, providerID: ProviderID?) -> Bool {
        let early = state.withLock { state -> Result<Value, any Error>?? in
            guard case .finished(let result) = state else {
                state = .installed(continuation)
                return .none
            }
            state = .finished(nil)
            return .some(result)
        }
        guard let early else { return true }
        continuation.resume(
            with: early ?? .failure(EngageError(.cancelled, "The call was cancelled while it waited.", providerID: providerID)))
        return false
    }

    /// Ends the wait with `result` unless it has ended already.
    func finish(with result: Result<Value, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<Value, any Error>? in
            switch state {
            case .waiting:
                state = .finished(result)
                return nil
            case .installed(let continuation):
                state = .finished(nil)
                return continuation
            case .finished:
                return nil
            }
        }
        continuation?.resume(with: result)
    }
}
