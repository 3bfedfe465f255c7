/// Turns an `async throws` operation into a completion-handler call.
///
/// Every public async operation of EngageKit has a callback twin built with this bridge:
///
/// ```swift
/// public func offers(completion: @escaping @Sendable (Result<[Offer], EngageError>) -> Void) -> any EngageCancellable {
///     CallbackBridge.run(on: callbackQueue, completion: completion) { try await self.offers() }
/// }
/// ```
///
/// The completion runs exactly once, on `queue`: with the value, or with the error converted to
/// `EngageError`.
///
/// Cancelling the returned handle cancels the operation's task. An operation that stops because of it
/// delivers `.cancelled`; an operation that completes anyway (or had completed) delivers its result,
/// because its effect already happened (a coupon redeemed just before the cancel was still redeemed).
public enum CallbackBridge {
    /// Runs `operation` in a new task and delivers its outcome to `completion` on `queue`, attributing
    /// errors to `providerID`. Returns the handle that cancels the task.
    @discardableResult
    public static func run<Value: Sendable>(
        on queue: CallbackQueue,
        providerID: ProviderID? = nil,
        completion: @escaping @Sendable (Result<Value, EngageError>) -> Void,
        operation: @escaping @Sendable () async throws -> Value
    ) -> any EngageCancellable {
        let task = Task {
            let result: Result<Value, EngageError>
            do {
                result = .success(try await operation())
            } catch {
                result = .failure(EngageError.wrapping(error, providerID: providerID))
            }
            queue.async { completion(result) }
        }
        return TaskCancellable(task)
    }
}
