import Foundation

/// When and how long to wait before repeating a failed request.
///
/// Delays grow exponentially from `baseDelay` by `multiplier`, are capped at `maxDelay`, and get "full
/// jitter" (a random fraction of the computed delay, at least half of it) so that many clients do
/// not retry in lockstep. A `Retry-After` header overrides the computed delay (capped at
/// `maxRetryAfter`).
@_spi(EngageProvider) public struct RetryPolicy: Sendable, Codable, Equatable {
    /// Total attempts including the first; 1 disables retries.
    public var maxAttempts: Int
    /// The delay before the first retry (300 ms by default).
    public var baseDelay: Duration
    /// The growth factor of later delays (at least 1; 2 by default).
    public var multiplier: Double
    /// The longest computed delay (10 s by default).
    public var maxDelay: Duration
    /// The longest `Retry-After` honoured; a longer one fails the request instead of waiting.
    public var maxRetryAfter: Duration
    /// Statuses that may be retried.
    public var retryableStatuses: Set<Int>

    /// A policy; each argument defaults to the value documented on its property.
    public init(
        maxAttempts: Int = 3,
        baseDelay: Duration = .milliseconds(300),
        multiplier: Double = 2,
        maxDelay: Duration = .seconds(10),
        maxRetryAfter: Duration = .seconds(60),
        retryableStatuses: Set<Int> = [408, 425, 429, 500, 502, 503, 504]
    ) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.multiplier = multiplier
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
        self.retryableStatuses = retryableStatuses
    }

    /// No retries.
    public static let none = RetryPolicy(maxAttempts: 1)

    /// The delay before attempt `attempt + 1`, given that `attempt` attempts failed (1-based), using a
    /// random fraction in `0..<1`.
    public func delay(afterAttempt attempt: Int, randomFraction: Double) -> Duration {
        let exponent = Double(max(0, attempt - 1))
        let raw = baseDelay.seconds * pow(multiplier, exponent)
        let capped = min(raw, maxDelay.seconds)
        let jittered = capped * (0.5 + 0.5 * min(max(randomFraction, 0), 1))
        return .seconds(double: jittered)
    }

    /// Problems that make the policy unusable, as readable sentences.
    public func validationIssues() -> [String] {
        var issues: [String] = []
        if maxAttempts < 1 { issues.append("retry.maxAttempts must be at least 1 (got \(maxAttempts)).") }
        if maxAttempts > 10 { issues.append("retry.maxAttempts must be at most 10 (got \(maxAttempts)).") }
        if baseDelay < .zero { issues.append("retry.baseDelay must not be negative.") }
        if multiplier < 1 { issues.append("retry.multiplier must be at least 1 (got \(multiplier)).") }
        if maxDelay < baseDelay { issues.append("retry.maxDelay must be at least retry.baseDelay.") }
        return issues
    }
}

extension RetryPolicy {
    /// Parses `Retry-After` as delay-seconds or an HTTP date (RFC 9110 §10.2.3).
    public static func retryAfterDelay(_ value: String?, now: Date) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value) { return seconds >= 0 ? .seconds(seconds) : nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return .seconds(double: max(0, date.timeIntervalSince(now)))
    }
}
