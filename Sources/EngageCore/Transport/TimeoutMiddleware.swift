/// Gives every attempt its timeout and the time its call has left, and fails an attempt that takes
/// longer, measured on the injected clock.
///
/// The transport receives the timeout in `options.timeout`. For a transport that enforces it itself
/// (`HTTPTransport.enforcesTimeouts`, e.g. URLSession) the middleware only sets it: racing every request
/// against a timer task costs about 50 µs per request on Linux. For any other transport it races the
/// attempt against the clock, which also makes timeouts testable with a fake clock.
package struct TimeoutMiddleware: HTTPMiddleware {
    /// The timeout of requests without their own.
    public let defaultTimeout: Duration
    /// The clock the timeout is measured on.
    public let clock: any EngageClock
    /// Whether the middleware itself races attempts against the clock.
    public let racesAttempts: Bool

    /// A middleware failing attempts after `defaultTimeout` (or their own timeout); with
    /// `racesAttempts == false` it only passes the timeout on to a transport that enforces it.
    public init(defaultTimeout: Duration, clock: any EngageClock, racesAttempts: Bool = true) {
        self.defaultTimeout = defaultTimeout
        self.clock = clock
        self.racesAttempts = racesAttempts
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
        // Not `expiresAt.map { … clock.uptime … }`: that closure crashes Swift 6.3.1's
        // ClosureLifetimeFixup pass in this function.
        var remaining: Duration?
        if let expiresAt = request.options.expiresAt { remaining = max(expiresAt - clock.uptime, .zero) }
        request.options.remaining = remaining
        guard racesAttempts else { return try await next(request) }
        let attempt = request
        let limit = remaining.map { min(timeout, $0) } ?? timeout
        return try await withThrowingTaskGroup(of: HTTPResponseMessage?.self) { group in
            group.addTask { try await next(attempt) }
            group.addTask {
                try await clock.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let response = first else {
                throw EngageError(
                    .timeout, limit < timeout ? "The call reached its deadline." : "The request took longer than \(timeout.seconds) s.",
                    isRetryable: true,
                    recoverySuggestion: "Check the connection and try again."
                )
            }
            return response
        }
    }
}
