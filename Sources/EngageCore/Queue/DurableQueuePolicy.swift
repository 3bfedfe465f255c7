import Foundation

/// Limits and timing of a `DurableQueue`.
///
/// An event leaves the queue only when it is delivered, when its destination rejects it (an answer
/// that judges the event, see ``DurableQueue/isRejection(_:)``), when it is older than ``maxEventAge``,
/// or when the queue is over ``maxPendingEvents`` or ``maxStoredBytes`` (oldest first). Failures that
/// say nothing about the event (no network, a timeout, a 5xx, a 429, a refused credential) never drop
/// it, however often they happen: they only delay its destination.
///
/// In JSON, durations are numbers of seconds:
/// `{"maxPendingEvents": 5000, "flushInterval": 15, "maxEventAge": 604800}`; missing fields take their
/// defaults.
@_spi(EngageProvider) public struct DurableQueuePolicy: Sendable, Codable, Equatable {
    /// What happens when an enqueue would exceed `maxPendingEvents` or `maxStoredBytes`.
    public typealias DropPolicy = QueueDropPolicy

    /// The most events kept pending, across destinations. Default 10 000, at most 1 000 000.
    public var maxPendingEvents: Int
    /// The most payload bytes kept pending, across destinations. Default 16 MiB, between 64 KiB and
    /// 1 GiB.
    public var maxStoredBytes: Int
    /// The most events per delivery. Default 50, at most 1 000.
    public var batchSize: Int
    /// The period of automatic flushing. Default 30 s, at most a day.
    public var flushInterval: Duration
    /// A destination's pause after its first failed delivery; doubled for each further failure in a
    /// row, with jitter. Default 2 s.
    public var baseRetryDelay: Duration
    /// The longest pause of the back-off. Default 300 s, at most a day.
    public var maxRetryDelay: Duration
    /// The longest `Retry-After` honoured: a server asking for more pauses its destination this long.
    /// Default one day.
    public var maxRetryAfter: Duration
    /// Events older than this (by the time they were enqueued) are dropped undelivered, reported as
    /// `.expired`. Default 30 days, at most 365 days.
    public var maxEventAge: Duration
    /// The overflow behaviour. Default `.dropOldest`.
    public var dropPolicy: DropPolicy

    /// A policy; every argument defaults to the documented value of its property.
    public init(
        maxPendingEvents: Int = 10_000,
        maxStoredBytes: Int = 16 * 1024 * 1024,
        batchSize: Int = 50,
        flushInterval: Duration = .seconds(30),
        baseRetryDelay: Duration = .seconds(2),
        maxRetryDelay: Duration = .seconds(300),
        maxRetryAfter: Duration = .seconds(86_400),
        maxEventAge: Duration = .seconds(30 * 86_400),
        dropPolicy: DropPolicy = .dropOldest
    ) {
        self.maxPendingEvents = maxPendingEvents
        self.maxStoredBytes = maxStoredBytes
        self.batchSize = batchSize
        self.flushInterval = flushInterval
        self.baseRetryDelay = baseRetryDelay
        self.maxRetryDelay = maxRetryDelay
        self.maxRetryAfter = maxRetryAfter
        self.maxEventAge = maxEventAge
        self.dropPolicy = dropPolicy
    }

    /// The largest accepted `batchSize`.
    public static let maximumBatchSize = 1_000
    /// The accepted range of `maxPendingEvents`.
    static let pendingEventsRange = 1...1_000_000
    /// The accepted range of `maxStoredBytes`.
    static let storedBytesRange = (64 * 1024)...(1024 * 1024 * 1024)
    /// The longest accepted `flushInterval`, `maxRetryDelay` and `maxRetryAfter`.
    static let longestPause: Duration = .seconds(86_400)
    /// The longest accepted `maxEventAge`.
    static let longestEventAge: Duration = .seconds(365 * 86_400)

    /// The problems of this policy, one readable sentence each; empty when it is valid.
    public func validationIssues() -> [String] {
        var issues: [String] = []
        func check(_ valid: Bool, _ issue: @autoclosure () -> String) {
            if !valid { issues.append(issue()) }
        }
        func inRange(_ value: Duration, _ name: String, upTo limit: Duration) {
            check(
                value > .zero && value <= limit, "\(name) must be more than 0 and at most \(Int(limit.seconds)) s (got \(value.seconds) s)."
            )
        }
        check(
            Self.pendingEventsRange.contains(maxPendingEvents), "maxPendingEvents must be between 1 and 1000000 (got \(maxPendingEvents)).")
        check(
            Self.storedBytesRange.contains(maxStoredBytes),
            "maxStoredBytes must be between \(Self.storedBytesRange.lowerBound) and \(Self.storedBytesRange.upperBound) (got \(maxStoredBytes))."
        )
        check(
            (1...Self.maximumBatchSize).contains(batchSize), "batchSize must be between 1 and \(Self.maximumBatchSize) (got \(batchSize)).")
        inRange(flushInterval, "flushInterval", upTo: Self.longestPause)
        inRange(baseRetryDelay, "baseRetryDelay", upTo: Self.longestPause)
        inRange(maxRetryDelay, "maxRetryDelay", upTo: Self.longestPause)
        check(
            maxRetryDelay >= baseRetryDelay,
            "maxRetryDelay (\(maxRetryDelay.seconds) s) must not be shorter than baseRetryDelay (\(baseRetryDelay.seconds) s)."
        )
        inRange(maxRetryAfter, "maxRetryAfter", upTo: Self.longestPause)
        inRange(maxEventAge, "maxEventAge", upTo: Self.longestEventAge)
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
        func fix(_ value: inout Duration, _ fallback: Duration, upTo limit: Duration) {
            if !(value > .zero && value <= limit) { value = fallback }
        }
        if !Self.pendingEventsRange.contains(policy.maxPendingEvents) { policy.maxPendingEvents = defaults.maxPendingEvents }
        if !Self.storedBytesRange.contains(policy.maxStoredBytes) { policy.maxStoredBytes = defaults.maxStoredBytes }
        if !(1...Self.maximumBatchSize).contains(policy.batchSize) { policy.batchSize = defaults.batchSize }
        fix(&policy.flushInterval, defaults.flushInterval, upTo: Self.longestPause)
        fix(&policy.baseRetryDelay, defaults.baseRetryDelay, upTo: Self.longestPause)
        fix(&policy.maxRetryDelay, defaults.maxRetryDelay, upTo: Self.longestPause)
        if policy.maxRetryDelay < policy.baseRetryDelay {
            policy.maxRetryDelay = max(defaults.maxRetryDelay, policy.baseRetryDelay)
        }
        fix(&policy.maxRetryAfter, defaults.maxRetryAfter, upTo: Self.longestPause)
        fix(&policy.maxEventAge, defaults.maxEventAge, upTo: Self.longestEventAge)
        return policy
    }

    /// A destination's pause after `failures` failed deliveries in a row (`failures >= 1`):
    /// `min(baseRetryDelay * 2^(failures-1), maxRetryDelay)`, scaled by a jitter factor in `0.5..<1`
    /// drawn from `fraction` (a value in `0..<1`).
    public func retryDelay(afterFailures failures: Int, fraction: Double) -> Duration {
        let exponent = Double(min(max(failures - 1, 0), 40))
        let uncapped = baseRetryDelay.seconds * pow(2, exponent)
        let capped = min(uncapped, maxRetryDelay.seconds)
        let jitter = 0.5 + 0.5 * min(max(fraction, 0), 1)
        return .seconds(double: capped * jitter)
    }
}

extension DurableQueuePolicy {
    private enum CodingKeys: String, CodingKey {
        case maxPendingEvents, maxStoredBytes, batchSize, flushInterval, baseRetryDelay, maxRetryDelay, maxRetryAfter, maxEventAge,
            dropPolicy
    }

    /// Decodes a policy; durations are numbers of seconds and missing fields take their defaults. Keys
    /// of earlier versions (`maxAttempts`) are ignored.
    public init(from decoder: any Decoder) throws {
        let defaults = DurableQueuePolicy()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func seconds(_ key: CodingKeys, _ fallback: Duration) throws -> Duration {
            try container.decodeIfPresent(Double.self, forKey: key).map { Duration.seconds(double: $0) } ?? fallback
        }
        self.init(
            maxPendingEvents: try container.decodeIfPresent(Int.self, forKey: .maxPendingEvents) ?? defaults.maxPendingEvents,
            maxStoredBytes: try container.decodeIfPresent(Int.self, forKey: .maxStoredBytes) ?? defaults.maxStoredBytes,
            batchSize: try container.decodeIfPresent(Int.self, forKey: .batchSize) ?? defaults.batchSize,
            flushInterval: try seconds(.flushInterval, defaults.flushInterval),
            baseRetryDelay: try seconds(.baseRetryDelay, defaults.baseRetryDelay),
            maxRetryDelay: try seconds(.maxRetryDelay, defaults.maxRetryDelay),
            maxRetryAfter: try seconds(.maxRetryAfter, defaults.maxRetryAfter),
            maxEventAge: try seconds(.maxEventAge, defaults.maxEventAge),
            dropPolicy: try container.decodeIfPresent(DropPolicy.self, forKey: .dropPolicy) ?? defaults.dropPolicy
        )
    }

    /// Encodes the policy with durations as numbers of seconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(maxPendingEvents, forKey: .maxPendingEvents)
        try container.encode(maxStoredBytes, forKey: .maxStoredBytes)
        try container.encode(batchSize, forKey: .batchSize)
        try container.encode(flushInterval.seconds, forKey: .flushInterval)
        try container.encode(baseRetryDelay.seconds, forKey: .baseRetryDelay)
        try container.encode(maxRetryDelay.seconds, forKey: .maxRetryDelay)
        try container.encode(maxRetryAfter.seconds, forKey: .maxRetryAfter)
        try container.encode(maxEventAge.seconds, forKey: .maxEventAge)
        try container.encode(dropPolicy, forKey: .dropPolicy)
    }
}
