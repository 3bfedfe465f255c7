import Dispatch

/// Turns an `async throws` operation into a completion-handler call.
///
/// Every public async operation of EngageKit has a callback twin built with this bridge:
///
/// ```swift
/// public func offers(completion: @escaping @MainActor @Sendable (Result<[Offer], EngageError>) -> Void) -> any EngageCancellable {
///     CallbackBridge.run(completion: completion) { try await self.offers() }
/// }
/// ```
///
/// The completion runs exactly once, on the main actor (through the main dispatch queue, so
/// completions arrive in the order their operations finished): with the value, or with the error
/// converted to `EngageError`. UI code reads the result without `MainActor.assumeIsolated`. On Linux
/// the main actor runs in any program with an `async` entry point (or one that calls `dispatchMain()`).
///
/// Cancelling the returned handle cancels the operation's task. An operation that stops because of it
/// delivers `.cancelled`; an operation that completes anyway (or had completed) delivers its result,
/// because its effect already happened (a coupon redeemed just before the cancel was still redeemed).
@_spi(EngageProvider) public enum CallbackBridge {
    /// Runs `operation` in a new task and delivers its outcome to `completion` on the main actor,
    /// attributing errors to `providerID`. Returns the handle that cancels the task.
    @discardableResult
    public static func run<Value: Sendable>(
        providerID: ProviderID? = nil,
        completion: @escaping @MainActor @Sendable (Result<Value, EngageError>) -> Void,
        operation: @escaping @Sendable () async throws -> Value
    ) -> any EngageCancellable {
        let task = Task {
            let result: Result<Value, EngageError>
            do {
                result = .success(try await operation())
            } catch {
                result = .failure(EngageError.wrapping(error, providerID: providerID))
            }
            onMainActor { completion(result) }
        }
        return TaskCancellable(task)
    }

    /// Runs `work` on the main actor, after everything already sent there by this bridge: the one
    /// delivery path of completions and main-actor event callbacks.
    package static func onMainActor(_ work: @escaping @MainActor @Sendable () -> Void) {
        DispatchQueue.main.async { MainActor.assumeIsolated { work() } }
    }
}
