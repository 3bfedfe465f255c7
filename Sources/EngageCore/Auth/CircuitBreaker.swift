import Foundation

/// Stops calling a failing dependency for a while, then lets one trial call through.
///
/// - **closed**: calls pass; consecutive failures are counted, and reaching `failureThreshold` opens it.
/// - **open**: calls fail at once with `.circuitOpen` until `cooldown` has passed on the clock (a clock
///   set back never makes that longer than one cooldown).
/// - **half-open**: one trial call passes; success closes the breaker, failure opens it again.
///
/// Time comes from the injected `EngageClock`, so tests drive transitions with a fake clock.
@_spi(EngageProvider) public final class CircuitBreaker: Sendable {
    /// The breaker's state.
    public enum State: Sendable, Equatable {
        /// Calls pass; `consecutiveFailures` failures in a row so far.
        case closed(consecutiveFailures: Int)
        /// Calls fail at once until this time.
        case open(until: Date)
        /// One trial call may pass.
        case halfOpen
    }

    /// Thresholds, with the Warply SDK's defaults (5 failures, 300 s).
    public struct Policy: Sendable, Codable, Equatable {
        /// Consecutive failures that open the breaker (at least 1; 5 by default).
        public var failureThreshold: Int
        /// How long the breaker stays open (positive; 300 s by default).
        public var cooldown: Duration

        /// A policy opening after `failureThreshold` failures for `cooldown`.
        public init(failureThreshold: Int = 5, cooldown: Duration = .seconds(300)) {
            self.failureThreshold = failureThreshold
            self.cooldown = cooldown
        }

        /// Problems that make the policy unusable, as readable sentences (empty when valid).
        public func validationIssues() -> [String] {
            var issues: [String] = []
            if failureThreshold < 1 { issues.append("circuitBreaker.failureThreshold must be at least 1 (got \(failureThreshold)).") }
            if cooldown <= .zero { issues.append("circuitBreaker.cooldown must be positive.") }
            return issues
        }
    }

    /// The thresholds in use.
    public let policy: Policy
    private let clock: any EngageClock
    private let storage = Locked<Storage>(Storage())

    private struct Storage {
        var state: State = .closed(consecutiveFailures: 0)
        var trialInFlight = false
    }

    /// A closed breaker with `policy`, timed by `clock`.
    public init(policy: Policy = Policy(), clock: any EngageClock) {
        self.policy = policy
        self.clock = clock
    }

    /// The current state, moving from open to half-open if the cooldown has passed.
    public var state: State {
        let now = clock.now
        let cooldown = policy.cooldown
        return storage.withLock { storage in
            if case let .open(until) = storage.state, !Self.isCoolingDown(until: until, now: now, cooldown: cooldown) {
                storage.state = .halfOpen
                storage.trialInFlight = false
            }
            return storage.state
        }
    }

    /// Asks to make a call. Throws `.circuitOpen` when the breaker is open, or half-open with its
    /// trial call already in flight.
    public func acquirePermission(providerID: ProviderID? = nil) throws(EngageError) {
        let now = clock.now
        let cooldown = policy.cooldown
        let refusal: Date?? = storage.withLock { storage -> Date?? in
            switch storage.state {
            case .closed:
                return .none
            case let .open(until) where Self.isCoolingDown(until: until, now: now, cooldown: cooldown):
                return .some(until)
            case .open:
                storage.state = .halfOpen
                storage.trialInFlight = true
                return .none
            case .halfOpen:
                if storage.trialInFlight { return .some(nil) }
                storage.trialInFlight = true
                return .none
            }
        }
        guard let refusal else { return }
        let wait = refusal.map { " for another \(Int($0.timeIntervalSince(now).rounded(.up))) s" } ?? ""
        throw EngageError(
            .circuitOpen, "Calls are paused after repeated failures\(wait).", providerID: providerID,
            isRetryable: true, recoverySuggestion: "Wait and try again; the service appears to be unavailable."
        )
    }

    /// Whether an open breaker whose cooldown ends at `until` is still cooling down at `now`. An end
    /// more than one cooldown away means the wall clock was set back since the breaker opened: the
    /// cooldown counts as over, so a clock set back a day never pauses calls for a day.
    private static func isCoolingDown(until: Date, now: Date, cooldown: Duration) -> Bool {
        now < until && until.timeIntervalSince(now) <= cooldown.seconds
    }

    /// Records a successful call: the breaker closes.
    public func recordSuccess() {
        storage.withLock { storage in
            storage.state = .closed(consecutiveFailures: 0)
            storage.trialInFlight = false
        }
    }

    /// Records a failed call: counts it, or reopens a half-open breaker.
    public func recordFailure() {
        let now = clock.now
        let cooldown = policy.cooldown
        let threshold = policy.failureThreshold
        storage.withLock { storage in
            switch storage.state {
            case let .closed(failures):
                storage.state = failures + 1 >= threshold ? .open(until: now.adding(cooldown)) : .closed(consecutiveFailures: failures + 1)
            case .halfOpen, .open:
                storage.state = .open(until: now.adding(cooldown))
            }
            storage.trialInFlight = false
        }
    }

    /// Closes the breaker and forgets failures.
    public func reset() {
        recordSuccess()
    }
}
