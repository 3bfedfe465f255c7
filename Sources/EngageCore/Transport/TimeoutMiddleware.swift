/// Fails an attempt that takes longer than its timeout, measured on the injected clock.
///
/// The transport also receives the timeout (URLSession enforces it on the connection); this middleware
/// guarantees it for any transport and makes it testable with a fake clock.
public struct TimeoutMiddleware: HTTPMiddleware {
    /// The timeout of requests without their own.
    public let defaultTimeout: Duration
    /// The clock the timeout is measured on.
    public let clock: any EngageClock

    /// A middleware failing attempts after `defaultTimeout` (or their own timeout).
    public init(defaultTimeout: Duration, clock: any EngageClock) {
        self.defaultTimeout = defaultTimeout
        self.clock = clock
    }

    /// Passes `request` on and throws `.timeout` if no answer came in time.
    public func intercept(
        _ request: HTTPRequestMessage,
        next: @escaping @Sendable (HTTPRequestMessage) async throws -> HTTPResponseMessage
    ) async throws -> HTTPResponseMessage {
        var request = request
        let timeout = request.options.timeout ?? defaultTimeout
        request.options.timeout = timeout
        let clock = self.clock
        let attempt = request
        return try await withThrowingTaskGroup(of: HTTPResponseMessage?.self) { group in
            group.addTask { try await next(attempt) }
            group.addTask {
                try await clock.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let response = first else {
                throw EngageError(
                    .timeout, "The request took longer than \(timeout.seconds) s.", isRetryable: true,
                    recoverySuggestion: "Check the connection and try again."
                )
            }
            return response
        }
    }
}
