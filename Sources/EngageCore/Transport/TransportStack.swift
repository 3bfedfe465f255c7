import Logging

/// Assembles what every attempt of an `APIClient` call is sent through, below authorisation and
/// retries (which are the client's own loop): timeout → logging (sees the authorised request,
/// redacted) → transport. A transport that enforces timeouts itself (`enforcesTimeouts`) is not raced
/// against a timer.
package enum TransportStack {
    /// The standard stack around `transport`; `additionalMiddleware` runs between timeout and logging.
    public static func make(
        transport: any HTTPTransport,
        timeout: Duration = .seconds(30),
        clock: any EngageClock = SystemClock(),
        logger: Logger,
        redactor: Redactor = Redactor(),
        additionalMiddleware: [any HTTPMiddleware] = []
    ) -> MiddlewareTransport {
        MiddlewareTransport(
            transport: transport,
            middlewares: [
                TimeoutMiddleware(defaultTimeout: timeout, clock: clock, racesAttempts: !transport.enforcesTimeouts)
            ] + additionalMiddleware + [
                LoggingMiddleware(logger: logger, redactor: redactor, clock: clock)
            ]
        )
    }
}
