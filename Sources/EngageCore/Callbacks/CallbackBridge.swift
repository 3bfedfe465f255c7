/// Turns an `async throws` operation into a completion-handler call.
///
/// Every public async operation of EngageKit has a callback twin built with this bridge:
///
/// ```swift
/// public func offers(completion: @escaping @Sendable (Result<[Offer], EngageError>) -> Void) -> any Cancellable {
///     CallbackBridge.run(on: callbackQueue, completion: completion) { try await self.offers() }
/// }
/// ```
///
/// The completion runs exactly once, on `queue`: with the value, with the error converted to
/// `EngageError`, or with `.cancelled` if the returned handle was cancelled first.
public enum CallbackBridge {
    @discardableResult
    public static func run<Value: Sendable>(
        on queue: CallbackQueue,
        providerID: ProviderID? = nil,
        completion: @escaping @Sendable (Result<Value, EngageError>) -> Void,
        operation: @escaping @Sendable () async throws -> Value
    ) -> any Cancellable {
        let task = Task {
            let result: Result<Value, EngageError>
            do {
                let value = try await operation()
                try Task.checkCancellation()
                result = .success(value)
            } catch {
                result = .failure(EngageError.wrapping(error, providerID: providerID))
            }
            queue.async { completion(result) }
        }
        return TaskCancellable(task)
    }
}
