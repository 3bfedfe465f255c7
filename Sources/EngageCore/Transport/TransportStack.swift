import Logging

/// Assembles the standard middleware stack around a transport.
///
/// Order, outermost first: retry (transient failures; each attempt gets fresh credentials and its own
/// timeout) → authorisation (credentials, the provider's `AnswerClassifier`, and one renew-and-resend
/// for a refused credential) → timeout → logging (sees the authorised request, redacted) → transport.
/// A transport that enforces timeouts itself (`enforcesTimeouts`) is not raced against a timer.
package enum TransportStack {
    /// The standard stack around `transport`, reading answers with `classifier`; `additionalMiddleware`
    /// runs between timeout and logging.
    public static func make(
        transport: any HTTPTransport,
        authorizer: any RequestAuthorizer = NoAuthorizer(),
        classifier: AnswerClassifier = .standard,
        retry: RetryPolicy = RetryPolicy(),
        timeout: Duration = .seconds(30),
        clock: any EngageClock = SystemClock(),
        random: any RandomSource = SystemRandomSource(),
        logger: Logger,
        redactor: Redactor = Redactor(),
        additionalMiddleware: [any HTTPMiddleware] = []
    ) -> MiddlewareTransport {
        MiddlewareTransport(
            transport: transport,
            middlewares: [
                RetryMiddleware(policy: retry, clock: clock, random: random, logger: logger),
                AuthorizationMiddleware(authorizer: authorizer, classifier: classifier, redactor: redactor),
                TimeoutMiddleware(defaultTimeout: timeout, clock: clock, racesAttempts: !transport.enforcesTimeouts),
            ] + additionalMiddleware + [
                LoggingMiddleware(logger: logger, redactor: redactor)
            ]
        )
    }
}
