import Logging

extension APIClient {
    /// What every attempt of a call is sent through, below authorisation and retries (the client's own
    /// loop): `transport` behind the per-attempt timeout (`timeout`, on `clock`), then the request log
    /// (to `logger`, redacted by `redactor`; it sees the authorised request).
    ///
    /// ``ProviderContext/makeAPIClient(baseURL:authorizer:policy:retry:timeout:defaultHeaders:requestHeaders:sensitiveHeaders:sensitiveKeys:logger:allowsCellularAccess:)``
    /// puts this under every provider's client; a client made outside a registry (a tool, a benchmark)
    /// uses it too. A transport that enforces timeouts itself (`enforcesTimeouts`) is not raced against
    /// a timer. A `nil` timeout or logger leaves that layer out, to measure or bypass it.
    public static func standardTransport(
        around transport: any HTTPTransport, timeout: Duration? = .seconds(30), clock: any EngageClock = SystemClock(),
        logger: Logger?, redactor: Redactor = Redactor()
    ) -> any HTTPTransport {
        var middlewares: [any HTTPMiddleware] = []
        if let timeout {
            middlewares.append(TimeoutMiddleware(defaultTimeout: timeout, clock: clock, racesAttempts: !transport.enforcesTimeouts))
        }
        if let logger {
            middlewares.append(LoggingMiddleware(logger: logger, redactor: redactor, clock: clock))
        }
        return MiddlewareTransport(transport: transport, middlewares: middlewares)
    }
}
