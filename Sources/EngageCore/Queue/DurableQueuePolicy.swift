import Foundation

/// Limits and timing of a `DurableQueue`.
///
/// In JSON, durations are numbers of seconds:
/// `{"maxPendingEvents": 5000, "flushInterval": 15, "dropPolicy": "rejectNew"}`; missing fields take
/// their defaults.
public struct DurableQueuePolicy: Sendable, Codable, Equatable {
    /// What happens when an enqueue would exceed `maxPendingEvents`.
    public enum DropPolicy: String, Sendable, Codable, Equatable {
        /// The oldest pending events (of any destination) are deleted and reported through `onDrop`.
        case dropOldest
        /// The enqueue throws `EngageError(.queueFull)` and nothing is stored.
        case rejectNew
    }

    /// The most events kept pending, across destinations. Default 10 000.
    public var maxPendingEvents: Int
    /// The most events per delivery. Default 50, at most 1 000.
    public var batchSize: Int
    /// The period of automatic flushing. Default 30 s.
    public var flushInterval: Duration
    /// The delay before the first retry; doubled for each further failure. Default 2 s.
    public var baseRetryDelay: Duration
    /// The longest retry delay. Default 300 s.
    public var maxRetryDelay: Duration
    /// Failed deliveries after which an event is dropped. Default 10.
    public var maxAttempts: Int
    /// The overflow behaviour. Default `.dropOldest`.
    public var dropPolicy: DropPolicy

    /// A policy; every argument defaults to the documented value of its property.
    public init(
        maxPendingEvents: Int = 10_000,
        batchSize: Int = 50,
        flushInterval: Duration = .seconds(30),
        baseRetryDelay: Duration = .seconds(2),
        maxRetryDelay: Duration = .seconds(300),
        maxAttempts: Int = 10,
        dropPolicy: DropPolicy = .dropOldest
    ) {
        self.maxPendingEvents = maxPendingEvents
        self.batchSize = batchSize
        self.flushInterval = flushInterval
        self.baseRetryDelay = baseRetryDelay
        self.maxRetryDelay = maxRetryDelay
        self.maxAttempts = maxAttempts
        self.dropPolicy = dropPolicy
    }

    /// The largest accepted `batchSize`.
    public static let maximumBatchSize = 1_000

    /// The problems of this policy, one readable sentence each; empty when it is valid.
    public func validationIssues() -> [String] {
        var issues: [String] = []
        if maxPendingEvents < 1 { issues.append("maxPendingEvents must be at least 1 (got \(maxPendingEvents)).") }
        if batchSize < 1 || batchSize > Self.maximumBatchSize {
            issues.append("batchSize must be between 1 and \(Self.maximumBatchSize) (got \(batchSize)).")
        }
        if flushInterval <= .zero { issues.append("flushInterval must be positive (got \(flushInterval.seconds) s).") }
        if baseRetryDelay <= .zero {
            issues.append("baseRetryDelay must be positive (got \(baseRetryDelay.seconds) s).")
        }
        if maxRetryDelay < baseRetryDelay {
            issues.append(
                "maxRetryDelay (\(maxRetryDelay.seconds) s) must not be shorter than baseRetryDelay "
                    + "(\(baseRetryDelay.seconds) s)."
            )
        }
        if maxAttempts < 1 { issues.append("maxAttempts must be at least 1 (got \(maxAttempts)).") }
        return issues
    }

    /// Throws `EngageError(.invalidConfiguration)` listing every field out of range.
    public func validate() throws {
        let issues = validationIssues()
        guard issues.isEmpty else {
            throw EngageError(
                .invalidConfiguration, "Invalid durable queue policy: " + issues.joined(separator: " "),
                recoverySuggestion: "Fix the analytics queue settings, or leave them out to use the defaults."
            )
        }
    }

    /// This policy with every out-of-range field replaced by its default.
    func sanitized() -> DurableQueuePolicy {
        let defaults = DurableQueuePolicy()
        var policy = self
        if policy.maxPendingEvents < 1 { policy.maxPendingEvents = defaults.maxPendingEvents }
        if policy.batchSize < 1 || policy.batchSize > Self.maximumBatchSize { policy.batchSize = defaults.batchSize }
        if policy.flushInterval <= .zero { policy.flushInterval = defaults.flushInterval }
        if policy.baseRetryDelay <= .zero { policy.baseRetryDelay = defaults.baseRetryDelay }
        if policy.maxRetryDelay < policy.baseRetryDelay {
            policy.maxRetryDelay = max(defaults.maxRetryDelay, policy.baseRetryDelay)
        }
        if policy.maxAttempts < 1 { policy.maxAttempts = defaults.maxAttempts }
        return policy
    }

    /// The delay before the next attempt after `attempts` failed ones (`attempts >= 1`):
    /// `min(baseRetryDelay * 2^(attempts-1), maxRetryDelay)`, scaled by a jitter factor in `0.5..<1`
    /// drawn from `fraction` (a value in `0..<1`).
    public func retryDelay(afterAttempts attempts: Int, fraction: Double) -> Duration {
        let exponent = Double(min(max(attempts - 1, 0), 40))
        let uncapped = baseRetryDelay.seconds * pow(2, exponent)
        let capped = min(uncapped, maxRetryDelay.seconds)
        let jitter = 0.5 + 0.5 * min(max(fraction, 0), 1)
        return .seconds(double: capped * jitter)
    }
}

extension DurableQueuePolicy {
    private enum CodingKeys: String, CodingKey {
        case maxPendingEvents, batchSize, flushInterval, baseRetryDelay, maxRetryDelay, maxAttempts, dropPolicy
    }

    /// Decodes a policy; durations are numbers of seconds and missing fields take their defaults.
    public init(from decoder: any Decoder) throws {
        let defaults = DurableQueuePolicy()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func seconds(_ key: CodingKeys, _ fallback: Duration) throws -> Duration {
            try container.decodeIfPresent(Double.self, forKey: key).map { Duration.seconds(double: $0) } ?? fallback
        }
        self.init(
            maxPendingEvents: try container.decodeIfPresent(Int.self, forKey: .maxPendingEvents)
                ?? defaults.maxPendingEvents,
            batchSize: try container.decodeIfPresent(Int.self, forKey: .batchSize) ?? defaults.batchSize,
            flushInterval: try seconds(.flushInterval, defaults.flushInterval),
            baseRetryDelay: try seconds(.baseRetryDelay, defaults.baseRetryDelay),
            maxRetryDelay: try seconds(.maxRetryDelay, defaults.maxRetryDelay),
            maxAttempts: try container.decodeIfPresent(Int.self, forKey: .maxAttempts) ?? defaults.maxAttempts,
            dropPolicy: try container.decodeIfPresent(DropPolicy.self, forKey: .dropPolicy) ?? defaults.dropPolicy
        )
    }

    /// Encodes the policy with durations as numbers of seconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(maxPendingEvents, forKey: .maxPendingEvents)
        try container.encode(batchSize, forKey: .batchSize)
        try container.encode(flushInterval.seconds, forKey: .flushInterval)
        try container.encode(baseRetryDelay.seconds, forKey: .baseRetryDelay)
        try container.encode(maxRetryDelay.seconds, forKey: .maxRetryDelay)
        try container.encode(maxAttempts, forKey: .maxAttempts)
        try container.encode(dropPolicy, forKey: .dropPolicy)
    }
}
