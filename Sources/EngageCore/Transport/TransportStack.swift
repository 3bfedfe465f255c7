import Logging

/// Assembles what every attempt of an `APIClient` call is sent through, below authorisation and
/// retries (which are the client's own loop): timeout → logging (sees the authorised request,
/// redacted) → transport. A transport that enforces timeouts itself (`enforcesTimeouts`) is not raced
/// against a timer.
package enum TransportStack {
    /// The standard stack around `transport`: the timeout (unless `timeout` is nil), then the log
    /// (unless `logger` is nil).
    public static func make(
        transport: any HTTPTransport,
        timeout: Duration? = .seconds(30),
        clock: any EngageClock = SystemClock(),
        logger: Logger?,
        redactor: Redactor = Redactor()
    ) -> MiddlewareTransport {
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

extension APIClient {
    /// What ``ProviderContext/makeAPIClient(baseURL:authorizer:policy:retry:timeout:defaultHeaders:requestHeaders:sensitiveHeaders:sensitiveKeys:logger:allowsCellularAccess:)``
    /// puts under its client, for a client made outside a registry (a tool, a benchmark): `transport`
    /// behind the per-attempt timeout (`timeout`, on `clock`), then the request log (to `logger`,
    /// redacted by `redactor`). A `nil` timeout or logger leaves that layer out, to measure or bypass it.
    public static func standardTransport(
        around transport: any HTTPTransport, timeout: Duration? = .seconds(30), clock: any EngageClock = SystemClock(),
        logger: Logger?, redactor: Redactor = Redactor()
    ) -> any HTTPTransport {
        TransportStack.make(transport: transport, timeout: timeout, clock: clock, logger: logger, redactor: redactor)
    }
}
