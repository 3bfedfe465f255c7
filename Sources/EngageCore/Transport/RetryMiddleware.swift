import Foundation
import HTTPTypes
import Logging

/// Repeats failed requests with exponential back-off and jitter, honouring `Retry-After`.
///
/// It retries a retryable status (see `RetryPolicy.retryableStatuses`) or a transport failure marked
/// retryable, but never repeats a request that may have reached the server unless the request is safe
/// to repeat (`HTTPRequestMessage.isSafeToRepeat`). Connection failures before anything was sent are
/// not distinguishable portably, so a non-idempotent request is retried only on a retryable status
/// that says the server did not process it (408, 425, 429, 503). It never repeats what the
/// authorisation layer decided on: a classifier's failure, or the answer to the one resend after a
/// renewed credential. A call therefore goes out at most `policy.maxAttempts + 1` times.
package struct RetryMiddleware: HTTPMiddleware {
    /// When and how long to wait before repeating.
    public let policy: RetryPolicy
    /// The clock the delays are slept on.
    public let clock: any EngageClock
    /// The source of jitter.
    public let random: any RandomSource
    /// Receives one debug line per retry.
    public let logger: Logger

    /// A middleware retrying per `policy`, sleeping on `clock`.
    public init(policy: RetryPolicy, clock: any EngageClock, random: any RandomSource = SystemRandomSource(), logger: Logger) {
        self.policy = policy
        self.clock = clock
        self.random = random
        self.logger = logger
    }

    private static let notProcessedStatuses: Set<Int> = [408, 425, 429, 503]

    /// Sends `request`, repeating it per the policy when that is safe.
    public func intercept(
        _ request: HTTPRequestMessage,
        next: @escaping @Sendable (HTTPRequestMessage) async throws -> HTTPResponseMessage
    ) async throws -> HTTPResponseMessage {
        let maxAttempts = request.options.allowsRetry ? policy.maxAttempts : 1
        var attempt = 1
        while true {
            let outcome: Result<HTTPResponseMessage, EngageError>
            do {
                let response = try await next(request)
                if response.isFinal { return response }
                outcome = .success(response)
            } catch let failure as FinalFailure {
                throw failure
            } catch {
                outcome = .failure(EngageError.wrapping(error))
            }
            guard attempt < maxAttempts, let delay = retryDelay(for: outcome, request: request, attempt: attempt),
                request.options.expiresAt.map({ ContinuousClock.now + delay < $0 }) ?? true  // no retry past the call's deadline
            else {
                return try outcome.get()
            }
            logger.debug(
                "Retrying request",
                metadata: [
                    "attempt": "\(attempt + 1)/\(maxAttempts)", "delay_ms": "\(Int(delay.seconds * 1000))",
                    "operation": "\(request.options.operationName?.rawValue ?? request.head.method.rawValue)",
                ]
            )
            try await clock.sleep(for: delay)
            attempt += 1
        }
    }

    /// The delay before the next attempt, or `nil` if the outcome must not be retried.
    func retryDelay(for outcome: Result<HTTPResponseMessage, EngageError>, request: HTTPRequestMessage, attempt: Int) -> Duration? {
        switch outcome {
        case let .success(response):
            guard policy.retryableStatuses.contains(response.status) else { return nil }
            guard request.isSafeToRepeat || Self.notProcessedStatuses.contains(response.status) else { return nil }
            if let retryAfter = RetryPolicy.retryAfterDelay(response.header("Retry-After"), now: clock.now) {
                return retryAfter <= policy.maxRetryAfter ? retryAfter : nil
            }
            return policy.delay(afterAttempt: attempt, randomFraction: random.nextFraction())
        case let .failure(error):
            guard error.isRetryable, error.code != .cancelled, request.isSafeToRepeat else { return nil }
            return policy.delay(afterAttempt: attempt, randomFraction: random.nextFraction())
        }
    }
}
