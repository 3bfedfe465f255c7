import Foundation
import Logging

/// Owns one provider's session tokens: hands out a valid access token, refreshes it single-flight,
/// and persists every change.
///
/// - **Single flight.** However many callers need a refresh at once, one refresh request is made and
///   every caller receives its result.
/// - **Generation guard.** Every change of tokens (login, refresh, logout) bumps a generation. A refresh
///   that completes after the tokens changed under it (the user logged out or in meanwhile) is
///   discarded, and a finished refresh never clears the bookkeeping of a newer one.
/// - **Proactive refresh.** A token within `proactiveRefreshWindow` of its expiry is refreshed before
///   use; if that early refresh fails transiently the still-valid token is used.
/// - **Classification.** A rejected refresh clears the tokens, publishes `SessionEndedEvent` and throws
///   `.sessionExpired`; a transient failure keeps the tokens and counts towards the circuit breaker.
/// - **Detached completion.** The refresh runs in its own task, so rotated tokens are stored even if
///   the caller that triggered it was cancelled.
public actor TokenManager {
    /// Timing and breaker settings.
    public struct Policy: Sendable, Codable, Equatable {
        /// Refresh this long before the access token expires (the Warply SDK uses 5 minutes).
        public var proactiveRefreshWindow: Duration
        public var circuitBreaker: CircuitBreaker.Policy

        public init(proactiveRefreshWindow: Duration = .seconds(300), circuitBreaker: CircuitBreaker.Policy = .init()) {
            self.proactiveRefreshWindow = proactiveRefreshWindow
            self.circuitBreaker = circuitBreaker
        }
    }

    public nonisolated let providerID: ProviderID
    public nonisolated let breaker: CircuitBreaker
    private let refresher: any TokenRefresher
    private let store: (any TokenStore)?
    private let clock: any EngageClock
    private let policy: Policy
    private let events: EventBus?
    private let logger: Logger

    private var tokens: TokenPair?
    private var loaded = false
    private var generation: UInt64 = 0
    private var inFlight: (id: UInt64, task: Task<TokenPair, any Error>)?
    private var nextRefreshID: UInt64 = 0
    private var refreshRequests = 0

    public init(
        providerID: ProviderID,
        refresher: any TokenRefresher,
        store: (any TokenStore)? = nil,
        clock: any EngageClock = SystemClock(),
        policy: Policy = Policy(),
        events: EventBus? = nil,
        logger: Logger = Logger(label: "engagekit.auth")
    ) {
        self.providerID = providerID
        self.refresher = refresher
        self.store = store
        self.clock = clock
        self.policy = policy
        self.events = events
        self.logger = logger
        self.breaker = CircuitBreaker(policy: policy.circuitBreaker, clock: clock)
    }

    /// The tokens currently held (loaded from the store on first use), if any.
    public func currentTokens() throws -> TokenPair? {
        try loadIfNeeded()
        return tokens
    }

    /// Whether a session exists.
    public func hasSession() throws -> Bool {
        try currentTokens() != nil
    }

    /// How many refreshes this manager started (for diagnostics and tests).
    public var refreshCount: Int { refreshRequests }

    /// Installs tokens obtained by logging in (or supplied by the host app), persisting them.
    public func setTokens(_ newTokens: TokenPair) throws {
        try loadIfNeeded()
        try install(newTokens)
        breaker.reset()
    }

    /// Forgets the tokens (logout), in memory and in the store. A refresh in flight is discarded.
    public func clear() throws {
        loaded = true
        generation &+= 1
        tokens = nil
        try store?.clear()
    }

    /// A usable access token, refreshing first if it is expired or about to expire; `nil` when there is
    /// no session.
    public func validAccessToken() async throws -> String? {
        guard let current = try currentTokens() else { return nil }
        let now = clock.now
        guard current.needsRefresh(at: now, window: policy.proactiveRefreshWindow) else {
            return current.accessToken
        }
        let expired = current.needsRefresh(at: now)
        do {
            return try await refresh().accessToken
        } catch let error as EngageError where !expired && error.code != .sessionExpired {
            // Proactive refresh failed transiently: the current token still works.
            logger.debug("Proactive token refresh failed; using the current token", metadata: ["error": "\(error.code)"])
            return current.accessToken
        }
    }

    /// Called after the server refused `failedAccessToken` with 401: refreshes, unless the tokens
    /// already changed since that request was sent (then the newer token is returned).
    public func accessTokenAfterUnauthorized(failedAccessToken: String) async throws -> String {
        guard let current = try currentTokens() else {
            throw EngageError(.unauthorized, "There is no session to renew.", providerID: providerID)
        }
        if current.accessToken != failedAccessToken {
            return current.accessToken
        }
        return try await refresh().accessToken
    }

    /// Refreshes now, or joins the refresh already in flight.
    @discardableResult
    public func refresh() async throws -> TokenPair {
        if let inFlight {
            return try await inFlight.task.value
        }
        guard let current = try currentTokens() else {
            throw EngageError(.unauthorized, "There is no session to refresh.", providerID: providerID)
        }
        try breaker.acquirePermission(providerID: providerID)
        nextRefreshID &+= 1
        let id = nextRefreshID
        let startGeneration = generation
        let task = Task { try await self.performRefresh(from: current, id: id, startGeneration: startGeneration) }
        inFlight = (id, task)
        return try await task.value
    }

    // MARK: - Internals

    private func performRefresh(from current: TokenPair, id: UInt64, startGeneration: UInt64) async throws -> TokenPair {
        defer {
            // Only the refresh that is still registered clears the slot: a late one never clears a newer one.
            if inFlight?.id == id { inFlight = nil }
        }
        refreshRequests += 1
        let refreshed: TokenPair
        do {
            refreshed = try await refresher.refresh(current)
        } catch {
            let engageError = EngageError.wrapping(error, providerID: providerID)
            switch refresher.classify(engageError) {
            case .rejected:
                breaker.recordSuccess()  // the service answered; it is not failing
                if generation == startGeneration {
                    try? clear()
                    events?.publish(SessionEndedEvent(providerID: providerID, reason: "refresh_rejected"))
                }
                logger.info("Refresh token rejected; session ended", metadata: ["provider": "\(providerID)"])
                throw EngageError(
                    .sessionExpired, "The session has ended; please log in again.", providerID: providerID,
                    httpStatus: engageError.httpStatus, recoverySuggestion: "Ask the user to log in again.",
                    underlyingError: engageError
                )
            case .transient:
                breaker.recordFailure()
                logger.warning("Token refresh failed; tokens kept", metadata: ["provider": "\(providerID)", "error": "\(engageError.code)"])
                var transient = engageError
                transient.isRetryable = true
                throw transient
            }
        }
        breaker.recordSuccess()
        guard generation == startGeneration else {
            // The session changed while refreshing (logout or a new login): keep what is there now.
            logger.debug("Discarding a refresh that finished after the session changed")
            guard let now = tokens else {
                throw EngageError(.sessionExpired, "The session ended during the refresh.", providerID: providerID)
            }
            return now
        }
        var merged = refreshed
        if merged.refreshToken == nil { merged.refreshToken = current.refreshToken }  // non-rotating schemes
        try install(merged)
        return merged
    }

    private func install(_ newTokens: TokenPair) throws {
        generation &+= 1
        tokens = newTokens
        loaded = true
        try store?.save(newTokens)
    }

    private func loadIfNeeded() throws {
        guard !loaded else { return }
        tokens = try store?.load()
        loaded = true
    }
}
