import EngageCore
import Foundation

extension WarplyConfiguration {
    /// Token handling.
    public struct TokenSettings: Codable, Sendable, Equatable {
        /// Refresh this many seconds before the access token expires (300: the SDK's 5 minutes).
        public var refreshThresholdSeconds: Double
        /// How many times one refresh is attempted when it fails with a 5xx or network error (1 = no retry).
        public var refreshAttempts: Int
        /// Delays before the attempts after the first, in seconds (the SDK's `[1, 5]`); the last one is
        /// reused when there are more attempts than delays.
        public var refreshRetryDelaysSeconds: [Double]
        /// Consecutive failed refreshes that open the circuit breaker.
        public var circuitBreakerThreshold: Int
        /// Seconds the breaker stays open before letting one refresh try again.
        public var circuitBreakerResetSeconds: Double

        /// Settings; the defaults are the SDK's.
        public init(
            refreshThresholdSeconds: Double = 300, refreshAttempts: Int = 3, refreshRetryDelaysSeconds: [Double] = [1, 5],
            circuitBreakerThreshold: Int = 5, circuitBreakerResetSeconds: Double = 300
        ) {
            self.refreshThresholdSeconds = refreshThresholdSeconds
            self.refreshAttempts = refreshAttempts
            self.refreshRetryDelaysSeconds = refreshRetryDelaysSeconds
            self.circuitBreakerThreshold = circuitBreakerThreshold
            self.circuitBreakerResetSeconds = circuitBreakerResetSeconds
        }

        enum CodingKeys: String, CodingKey {
            case refreshThresholdSeconds, refreshAttempts, refreshRetryDelaysSeconds, circuitBreakerThreshold, circuitBreakerResetSeconds
        }

        /// Decodes settings; a missing key takes the SDK's default (see ``init(refreshThresholdSeconds:refreshAttempts:refreshRetryDelaysSeconds:circuitBreakerThreshold:circuitBreakerResetSeconds:)``).
        /// Inside a `WarplyConfiguration`, missing keys take the chosen preset's values instead.
        public init(from decoder: any Decoder) throws {
            try self.init(from: decoder, defaults: TokenSettings())
        }

        /// Decodes settings, taking every missing key from `defaults`.
        init(from decoder: any Decoder, defaults: TokenSettings) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                refreshThresholdSeconds: try container.decodeIfPresent(Double.self, forKey: .refreshThresholdSeconds)
                    ?? defaults.refreshThresholdSeconds,
                refreshAttempts: try container.decodeIfPresent(Int.self, forKey: .refreshAttempts) ?? defaults.refreshAttempts,
                refreshRetryDelaysSeconds: try container.decodeIfPresent([Double].self, forKey: .refreshRetryDelaysSeconds)
                    ?? defaults.refreshRetryDelaysSeconds,
                circuitBreakerThreshold: try container.decodeIfPresent(Int.self, forKey: .circuitBreakerThreshold)
                    ?? defaults.circuitBreakerThreshold,
                circuitBreakerResetSeconds: try container.decodeIfPresent(Double.self, forKey: .circuitBreakerResetSeconds)
                    ?? defaults.circuitBreakerResetSeconds
            )
        }

        /// The delay before attempt `attempt` (2, 3, ...).
        func delay(beforeAttempt attempt: Int) -> Duration {
            guard attempt > 1, let last = refreshRetryDelaysSeconds.last else { return .zero }
            let index = attempt - 2
            return .seconds(double: index < refreshRetryDelaysSeconds.count ? refreshRetryDelaysSeconds[index] : last)
        }

        /// The token manager policy these settings describe.
        var policy: TokenManager.Policy {
            TokenManager.Policy(
                proactiveRefreshWindow: .seconds(double: refreshThresholdSeconds),
                circuitBreaker: CircuitBreaker.Policy(
                    failureThreshold: circuitBreakerThreshold, cooldown: .seconds(double: circuitBreakerResetSeconds)
                )
            )
        }

        func validationIssues() -> [String] {
            var issues: [String] = []
            if !(0...3600).contains(refreshThresholdSeconds) {
                issues.append("tokens.refreshThresholdSeconds must be within 0...3600 (got \(refreshThresholdSeconds)); the SDK default is 300.")
            }
            if !(1...10).contains(refreshAttempts) { issues.append("tokens.refreshAttempts must be within 1...10 (got \(refreshAttempts)).") }
            if refreshRetryDelaysSeconds.contains(where: { !(0...300).contains($0) }) {
                issues.append("tokens.refreshRetryDelaysSeconds must each be within 0...300 seconds.")
            }
            if refreshAttempts > 1, refreshRetryDelaysSeconds.isEmpty {
                issues.append("tokens.refreshRetryDelaysSeconds must not be empty when refreshAttempts is more than 1.")
            }
            if !(1...100).contains(circuitBreakerThreshold) {
                issues.append("tokens.circuitBreakerThreshold must be within 1...100 (got \(circuitBreakerThreshold)).")
            }
            if !(1...86_400).contains(circuitBreakerResetSeconds) {
                issues.append("tokens.circuitBreakerResetSeconds must be within 1...86400 (got \(circuitBreakerResetSeconds)).")
            }
            return issues
        }
    }
}
