import Foundation

/// Network settings, in plain units so they read well in JSON.
public struct NetworkSettings: Codable, Sendable, Equatable {
    /// Per-attempt timeout, in seconds (more than 0, at most 600).
    public var timeoutSeconds: Double
    /// Total attempts per call for transient failures, including the first (1...10). A renewed
    /// credential adds one last send, so a call goes out at most `maxAttempts + 1` times.
    public var maxAttempts: Int
    /// First retry delay, in seconds (0...60); later ones grow exponentially with jitter.
    public var retryBaseDelaySeconds: Double
    /// Longest delay between attempts, in seconds (at most 300).
    public var retryMaxDelaySeconds: Double
    /// Largest accepted response body, in bytes (1 KiB to 1 GiB).
    public var maxResponseBytes: Int
    /// Whether `http://` base URLs other than loopback are accepted.
    public var allowsInsecureHTTP: Bool
    /// The longest one call may take, in seconds, all attempts and the waits between them included
    /// (at least `timeoutSeconds`, at most 3600). `timeoutSeconds` bounds silence; this bounds the
    /// whole call, so a server trickling a byte now and then cannot hold it (or the analytics flush
    /// behind it) for longer. Large downloads set their own (`RequestOptions.deadline`).
    public var callDeadlineSeconds: Double

    /// Settings; each argument defaults to the value documented on its property.
    public init(
        timeoutSeconds: Double = 30, maxAttempts: Int = 3, retryBaseDelaySeconds: Double = 0.3,
        retryMaxDelaySeconds: Double = 10, maxResponseBytes: Int = 16 * 1024 * 1024, allowsInsecureHTTP: Bool = false,
        callDeadlineSeconds: Double = 120
    ) {
        self.timeoutSeconds = timeoutSeconds
        self.maxAttempts = maxAttempts
        self.retryBaseDelaySeconds = retryBaseDelaySeconds
        self.retryMaxDelaySeconds = retryMaxDelaySeconds
        self.maxResponseBytes = maxResponseBytes
        self.allowsInsecureHTTP = allowsInsecureHTTP
        self.callDeadlineSeconds = callDeadlineSeconds
    }

    /// Decodes settings; missing fields take their defaults.
    public init(from decoder: any Decoder) throws {
        let defaults = NetworkSettings()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            timeoutSeconds: try container.decodeIfPresent(Double.self, forKey: .timeoutSeconds) ?? defaults.timeoutSeconds,
            maxAttempts: try container.decodeIfPresent(Int.self, forKey: .maxAttempts) ?? defaults.maxAttempts,
            retryBaseDelaySeconds: try container.decodeIfPresent(Double.self, forKey: .retryBaseDelaySeconds)
                ?? defaults.retryBaseDelaySeconds,
            retryMaxDelaySeconds: try container.decodeIfPresent(Double.self, forKey: .retryMaxDelaySeconds)
                ?? defaults.retryMaxDelaySeconds,
            maxResponseBytes: try container.decodeIfPresent(Int.self, forKey: .maxResponseBytes) ?? defaults.maxResponseBytes,
            allowsInsecureHTTP: try container.decodeIfPresent(Bool.self, forKey: .allowsInsecureHTTP) ?? defaults.allowsInsecureHTTP,
            callDeadlineSeconds: try container.decodeIfPresent(Double.self, forKey: .callDeadlineSeconds) ?? defaults.callDeadlineSeconds
        )
    }

    /// The retry policy these settings describe.
    @_spi(EngageProvider) public var retryPolicy: RetryPolicy {
        RetryPolicy(
            maxAttempts: maxAttempts, baseDelay: .seconds(double: retryBaseDelaySeconds),
            maxDelay: .seconds(double: retryMaxDelaySeconds)
        )
    }

    /// The per-attempt timeout.
    public var timeout: Duration { .seconds(double: timeoutSeconds) }

    /// The whole-call deadline.
    public var callDeadline: Duration { .seconds(double: callDeadlineSeconds) }

    /// The largest accepted `maxResponseBytes`: 1 GiB.
    static let maximumResponseBytes = 1 << 30

    /// Problems that make these settings unusable, as readable sentences (empty when valid).
    public func validationIssues() -> [String] {
        var issues: [String] = []
        if !(timeoutSeconds > 0 && timeoutSeconds <= 600) {
            issues.append("network.timeoutSeconds must be in (0, 600] (got \(timeoutSeconds)).")
        }
        if !(retryBaseDelaySeconds >= 0 && retryBaseDelaySeconds <= 60) {
            issues.append("network.retryBaseDelaySeconds must be in [0, 60] (got \(retryBaseDelaySeconds)).")
        }
        if retryMaxDelaySeconds < retryBaseDelaySeconds {
            issues.append("network.retryMaxDelaySeconds must be at least retryBaseDelaySeconds.")
        }
        if !(retryMaxDelaySeconds <= 300) {
            issues.append("network.retryMaxDelaySeconds must be at most 300 (got \(retryMaxDelaySeconds)).")
        }
        if !(1024...Self.maximumResponseBytes).contains(maxResponseBytes) {
            issues.append(
                "network.maxResponseBytes must be between 1024 and \(Self.maximumResponseBytes) (1 GiB) (got \(maxResponseBytes)).")
        }
        if !(callDeadlineSeconds >= timeoutSeconds && callDeadlineSeconds <= 3600) {
            issues.append(
                "network.callDeadlineSeconds must be at least network.timeoutSeconds and at most 3600 (got \(callDeadlineSeconds)).")
        }
        issues += retryPolicy.validationIssues().map { $0.replacingOccurrences(of: "retry.", with: "network.") }
        return issues
    }

    /// Whether `host` is a loopback address: `localhost`, `::1` (bracketed or not), or a dotted-quad
    /// `127.x.y.z` with four decimal octets of at most 255. A name such as `127.attacker.com` is not.
    package static func isLoopback(host: String) -> Bool {
        let host = host.lowercased()
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets[0] == "127" else { return false }
        return octets.allSatisfy { octet in
            (1...3).contains(octet.count) && octet.allSatisfy { ("0"..."9").contains($0) } && (Int(octet) ?? 256) <= 255
        }
    }

    /// Checks that `url` is allowed by these settings (`https`, or `http` on loopback — see
    /// `isLoopback(host:)` — or when insecure HTTP is allowed).
    @_spi(EngageProvider) public func validate(baseURL url: URL, providerID: ProviderID? = nil) throws(EngageError) {
        let scheme = url.scheme?.lowercased()
        guard let host = url.host, !host.isEmpty, scheme == "https" || scheme == "http" else {
            throw EngageError(
                .invalidConfiguration, "'\(Redactor().redact(url: url))' is not an absolute http(s) URL.", providerID: providerID)
        }
        if scheme == "http", !Self.isLoopback(host: host), !allowsInsecureHTTP {
            throw EngageError(
                .invalidConfiguration, "Plain HTTP to \(host) is not allowed in this configuration.", providerID: providerID,
                recoverySuggestion: "Use https, or set network.allowsInsecureHTTP for development."
            )
        }
    }
}

/// Session settings.
public struct AuthSettings: Codable, Sendable, Equatable {
    /// Refresh this long before the access token expires.
    public var proactiveRefreshSeconds: Double
    /// Consecutive refresh failures that open the circuit breaker.
    public var breakerFailureThreshold: Int
    /// How long the breaker stays open.
    public var breakerCooldownSeconds: Double
    /// How long the callers of a refresh wait for it (60 s by default): past it they get a retryable
    /// `.timeout`, the refresh is abandoned and the next call starts a new one. An HTTP refresh ends
    /// sooner by its own request timeout; this bounds a refresher that never answers.
    public var refreshTimeoutSeconds: Double

    /// Settings: refresh 300 s before expiry; the breaker opens after 5 failures for 300 s; a refresh
    /// is waited for 60 s at most (defaults).
    public init(
        proactiveRefreshSeconds: Double = 300, breakerFailureThreshold: Int = 5, breakerCooldownSeconds: Double = 300,
        refreshTimeoutSeconds: Double = 60
    ) {
        self.proactiveRefreshSeconds = proactiveRefreshSeconds
        self.breakerFailureThreshold = breakerFailureThreshold
        self.breakerCooldownSeconds = breakerCooldownSeconds
        self.refreshTimeoutSeconds = refreshTimeoutSeconds
    }

    /// Decodes settings; missing fields take their defaults.
    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder, defaults: AuthSettings())
    }

    /// Decodes settings; missing fields keep their value in `defaults` (a provider's preset override).
    package init(from decoder: any Decoder, defaults: AuthSettings) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            proactiveRefreshSeconds: try container.decodeIfPresent(Double.self, forKey: .proactiveRefreshSeconds)
                ?? defaults.proactiveRefreshSeconds,
            breakerFailureThreshold: try container.decodeIfPresent(Int.self, forKey: .breakerFailureThreshold)
                ?? defaults.breakerFailureThreshold,
            breakerCooldownSeconds: try container.decodeIfPresent(Double.self, forKey: .breakerCooldownSeconds)
                ?? defaults.breakerCooldownSeconds,
            refreshTimeoutSeconds: try container.decodeIfPresent(Double.self, forKey: .refreshTimeoutSeconds)
                ?? defaults.refreshTimeoutSeconds
        )
    }

    /// The circuit breaker these settings describe.
    var breakerPolicy: CircuitBreaker.Policy {
        CircuitBreaker.Policy(failureThreshold: breakerFailureThreshold, cooldown: .seconds(double: breakerCooldownSeconds))
    }

    /// Problems that make these settings unusable, as readable sentences (empty when valid); each
    /// names its setting under `prefix` (`auth`, or a provider's override such as `warply.auth`).
    public func validationIssues(prefix: String = "auth") -> [String] {
        var issues: [String] = []
        if !(proactiveRefreshSeconds >= 0 && proactiveRefreshSeconds <= 86_400) {
            issues.append("\(prefix).proactiveRefreshSeconds must be in [0, 86400] (got \(proactiveRefreshSeconds)).")
        }
        if !(1...1_000).contains(breakerFailureThreshold) {
            issues.append("\(prefix).breakerFailureThreshold must be in 1...1000 (got \(breakerFailureThreshold)).")
        }
        if !(breakerCooldownSeconds > 0 && breakerCooldownSeconds <= 86_400) {
            issues.append("\(prefix).breakerCooldownSeconds must be in (0, 86400] (got \(breakerCooldownSeconds)).")
        }
        if !(refreshTimeoutSeconds > 0 && refreshTimeoutSeconds <= 3_600) {
            issues.append("\(prefix).refreshTimeoutSeconds must be in (0, 3600] (got \(refreshTimeoutSeconds)).")
        }
        return issues
    }
}

/// Durable analytics queue settings.
///
/// Events leave the queue when delivered, when their destination rejects them, when they are older
/// than `maxEventAgeDays`, or when the queue is over `maxPendingEvents` or `maxStoredBytes` (oldest
/// first); never because the network or the server failed, however long (see `DurableQueuePolicy`).
public struct AnalyticsSettings: Codable, Sendable, Equatable {
    /// Events kept at most, all destinations together (10 000 by default, at most 1 000 000).
    public var maxPendingEvents: Int
    /// Payload bytes kept at most, all destinations together (16 MiB by default, 64 KiB to 1 GiB).
    public var maxStoredBytes: Int
    /// Events per delivery batch (50 by default, at most 1 000).
    public var batchSize: Int
    /// Seconds between automatic flushes (30 by default, at most a day).
    public var flushIntervalSeconds: Double
    /// Days after which an undelivered event is dropped (30 by default, at most 365).
    public var maxEventAgeDays: Double
    /// `dropOldest` or `rejectNew` when the queue is full.
    public var dropPolicy: QueueDropPolicy
    /// Whether an `Engage` instance flushes the queue when the app moves to the background (UIKit's
    /// did-enter-background notification; `true` by default). The flush asks the system for extra
    /// time, so queued events leave before the app is suspended.
    public var flushesOnBackground: Bool

    /// Settings; each argument defaults to the value documented on its property.
    public init(
        maxPendingEvents: Int = 10_000, maxStoredBytes: Int = 16 * 1024 * 1024, batchSize: Int = 50, flushIntervalSeconds: Double = 30,
        maxEventAgeDays: Double = 30, dropPolicy: QueueDropPolicy = .dropOldest, flushesOnBackground: Bool = true
    ) {
        self.maxPendingEvents = maxPendingEvents
        self.maxStoredBytes = maxStoredBytes
        self.batchSize = batchSize
        self.flushIntervalSeconds = flushIntervalSeconds
        self.maxEventAgeDays = maxEventAgeDays
        self.dropPolicy = dropPolicy
        self.flushesOnBackground = flushesOnBackground
    }

    /// Decodes settings; missing fields take their defaults, and keys of earlier versions
    /// (`maxAttempts`) are ignored.
    public init(from decoder: any Decoder) throws {
        let defaults = AnalyticsSettings()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            maxPendingEvents: try container.decodeIfPresent(Int.self, forKey: .maxPendingEvents) ?? defaults.maxPendingEvents,
            maxStoredBytes: try container.decodeIfPresent(Int.self, forKey: .maxStoredBytes) ?? defaults.maxStoredBytes,
            batchSize: try container.decodeIfPresent(Int.self, forKey: .batchSize) ?? defaults.batchSize,
            flushIntervalSeconds: try container.decodeIfPresent(Double.self, forKey: .flushIntervalSeconds)
                ?? defaults.flushIntervalSeconds,
            maxEventAgeDays: try container.decodeIfPresent(Double.self, forKey: .maxEventAgeDays) ?? defaults.maxEventAgeDays,
            dropPolicy: try container.decodeIfPresent(QueueDropPolicy.self, forKey: .dropPolicy) ?? defaults.dropPolicy,
            flushesOnBackground: try container.decodeIfPresent(Bool.self, forKey: .flushesOnBackground) ?? defaults.flushesOnBackground
        )
    }
}

extension AnalyticsSettings {
    /// The durable queue policy these settings describe.
    @_spi(EngageProvider) public var queuePolicy: DurableQueuePolicy {
        DurableQueuePolicy(
            maxPendingEvents: maxPendingEvents, maxStoredBytes: maxStoredBytes, batchSize: batchSize,
            flushInterval: .seconds(double: flushIntervalSeconds), maxEventAge: .seconds(double: maxEventAgeDays * 86_400),
            dropPolicy: dropPolicy
        )
    }

    /// Problems that make these settings unusable, as readable sentences (empty when valid).
    public func validationIssues() -> [String] {
        do {
            try queuePolicy.validate()
            return []
        } catch {
            return ["analytics: \((error as? EngageError)?.message ?? "invalid settings")"]
        }
    }
}

/// What the analytics queue does when an event would exceed its limits (`maxPendingEvents` or
/// `maxStoredBytes`).
public enum QueueDropPolicy: String, Sendable, Codable, Equatable {
    /// The oldest pending events (of any destination) are deleted and reported as a `QueueDropReport`.
    case dropOldest
    /// The new event is refused with `EngageError.Code.queueFull` and nothing is stored.
    case rejectNew
}
