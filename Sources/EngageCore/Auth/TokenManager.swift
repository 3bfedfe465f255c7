import Foundation
import Logging

/// Owns one provider's session tokens: hands out a valid access token, refreshes it single-flight,
/// and persists every change.
///
/// - **Single flight.** However many callers need a refresh at once, one refresh request is made and
///   every caller receives its result.
/// - **Generation guard.** Every change of tokens (login, refresh, logout) bumps a generation and
///   detaches the refresh in flight, so later callers never join a refresh of an old session. A refresh
///   that completes after the tokens changed under it (the user logged out or in meanwhile) is
///   discarded: its callers receive the tokens current by then (or `.unauthorized` when there is no
///   session), a rejected one neither clears the new session nor publishes `SessionEndedEvent`, and a
///   finished refresh never clears the bookkeeping of a newer one.
/// - **Unreadable storage.** A stored session that cannot be opened or decoded (another key, tampered
///   or incompatible data) is treated as no session: it is logged (without secrets) and removed, and
///   the user logs in again. Other storage failures are thrown.
/// - **A wrong device clock.** Each pair is stamped with the time it arrived (`receivedAt`); a pair
///   that arrived before it was issued, or after it expired, shows how far the device's clock is off
///   from its `iat`, and its expiry is moved by that much. A refreshed token that still looks expired on
///   arrival (it has no `iat`) is used until the server refuses it: a token received moments ago is
///   never refreshed more than once, and a clock set hours ahead never makes every call refresh.
/// - **Proactive refresh.** A token within `AuthSettings.proactiveRefreshSeconds` of its expiry is refreshed
///   before use; if that early refresh fails transiently the still-valid token is used.
/// - **One send per refresh.** The manager never repeats a refresh: one that may have reached the server
///   spent its rotating refresh token. Refreshers send with `allowsRetry: false`.
/// - **Classification.** A rejected refresh clears the tokens, publishes `SessionEndedEvent` and throws
///   `.sessionExpired`; a transient failure keeps the tokens and counts towards the circuit breaker.
/// - **Bounded wait.** Callers wait at most `AuthSettings.refreshTimeoutSeconds` (60 s) for a refresh,
///   then get a retryable `.timeout`; the refresh is abandoned and the next call starts a new one.
/// - **Saved before it counts.** A login's tokens are saved before they replace the session: when the
///   store cannot save them (a full disk), `setTokens` throws and the previous session stays. A
///   refresh's rotated tokens are the only valid ones once the server answered, so when they cannot be
///   saved they are used from memory, the failure is logged, and every later use saves them again until
///   the store takes them; the spent refresh token on disk is never what the manager works from.
/// - **Detached completion.** The refresh runs in its own task, so rotated tokens are stored even if
///   the caller that triggered it was cancelled. A cancelled caller (the one that started the refresh
///   or one that joined it) returns `.cancelled` at once instead of waiting for the refresh to end.
@_spi(EngageProvider) public actor TokenManager {
    /// The provider whose session this is; errors are attributed to it.
    public nonisolated let providerID: ProviderID
    /// The circuit breaker in front of the refresh endpoint.
    public nonisolated let breaker: CircuitBreaker
    private let refresher: any TokenRefresher
    private let store: (any TokenStore)?
    private let clock: any EngageClock
    private let proactiveRefreshWindow: Duration
    private let refreshTimeout: Duration
    private let events: EventBus?
    private let logger: Logger

    private var tokens: TokenPair?
    private var loaded = false
    /// Rotated tokens held in memory that the store refused to save; saved again on each use.
    private var unsaved = false
    /// The access token of a refreshed pair that looked expired on arrival (a wrong clock): used until
    /// the server refuses it, never refreshed for its expiry.
    private var usedUntilRefused: String?
    private var generation: UInt64 = 0
    /// How many times ``clear()`` ended a session (logouts, resets; not a refresh token's rejection).
    private var clears: UInt64 = 0
    private let refreshes = SingleFlight<TokenPair>()
    private var refreshRequests = 0
    private var joinedCallers = 0
    /// Refreshes abandoned after `refreshTimeoutSeconds`: their late end changes neither the breaker
    /// nor the slot of a newer refresh.
    private var abandonedRefreshIDs: Set<UInt64> = []

    /// A manager for `providerID`'s session.
    ///
    /// - Parameters:
    ///   - providerID: The provider whose session this is (in events and log lines).
    ///   - refresher: Performs the network exchange of a refresh.
    ///   - store: Persists the tokens (`nil` keeps them in memory only).
    ///   - clock: The time source for expiry and the breaker.
    ///   - settings: The proactive refresh window and the breaker (the configuration's `auth`).
    ///   - events: Receives `SessionEndedEvent` when a refresh is rejected.
    ///   - logger: Receives refresh outcomes; tokens are never logged.
    public init(
        providerID: ProviderID,
        refresher: any TokenRefresher,
        store: (any TokenStore)? = nil,
        clock: any EngageClock = SystemClock(),
        settings: AuthSettings = AuthSettings(),
        events: EventBus? = nil,
        logger: Logger = Logger(label: "engagekit.auth")
    ) {
        self.providerID = providerID
        self.refresher = refresher
        self.store = store
        self.clock = clock
        self.proactiveRefreshWindow = .seconds(double: settings.proactiveRefreshSeconds)
        self.refreshTimeout = .seconds(double: settings.refreshTimeoutSeconds)
        self.events = events
        self.logger = logger
        self.breaker = CircuitBreaker(policy: settings.breakerPolicy, clock: clock)
    }

    /// The tokens currently held (loaded from the store on first use), if any.
    public func currentTokens() throws -> TokenPair? {
        try loadIfNeeded()
        saveIfUnsaved()
        return tokens
    }

    /// Whether rotated tokens are held in memory that the store has not saved yet (for diagnostics and
    /// tests).
    package var hasUnsavedTokens: Bool { unsaved }

    /// Whether a session exists.
    public func hasSession() throws -> Bool {
        try currentTokens() != nil
    }

    /// How many refreshes this manager started (for diagnostics and tests).
    package var refreshCount: Int { refreshRequests }

    /// How many callers are waiting right now for a refresh that another caller started (for
    /// diagnostics and tests: the callers that share a single flight).
    package var joinedCallerCount: Int { joinedCallers }

    /// Installs tokens obtained by logging in (or supplied by the host app), persisting them. It does
    /// not read the store first, so a stored session that cannot be opened never blocks a new login.
    public func setTokens(_ newTokens: TokenPair) throws {
        try setTokens(newTokens, alongside: {})
    }

    /// Installs tokens obtained by logging in together with provider data of the same session (Warply's
    /// client credentials), written by `alongside` in the same step on the manager: a refresh of the
    /// previous session that ends meanwhile sees the new generation, so it can neither clear the new
    /// data nor run against half of it.
    ///
    /// Both are written in one storage transaction (a storage batch) before anything else changes: a
    /// login that cannot be kept (a full disk) throws and writes neither, leaving the current session as
    /// it was, a refresh of it in flight included; a crash never leaves one without the other.
    public func setTokens(_ newTokens: TokenPair, alongside write: @Sendable () throws -> Void) throws {
        let newTokens = stamped(newTokens)
        // One transaction: a crash never leaves the new session's data beside the old tokens, or the
        // reverse.
        try StorageBatch.atomically {
            try write()
            try store?.save(newTokens)
        }
        // Nothing above suspends, so no refresh ends between these writes and the switch below.
        generation &+= 1
        refreshes.detach()  // a refresh of the previous session is not joined any more
        switchTo(newTokens)
        breaker.reset()
    }

    /// A mark to give ``setTokens(_:unlessClearedSince:alongside:)``: read it before sending a login, so
    /// that a logout while its answer is on the way keeps the user logged out.
    public var logoutMark: UInt64 { clears }

    /// Installs the tokens of a login that started at `mark` (``logoutMark``), like
    /// ``setTokens(_:alongside:)``, unless the session was cleared since: the check and the install are
    /// one step on the manager, so no logout can fall between them.
    ///
    /// - Throws: `.cancelled` (nothing written) when a logout or reset happened while the login's answer
    ///   was on its way.
    public func setTokens(_ newTokens: TokenPair, unlessClearedSince mark: UInt64, alongside write: @Sendable () throws -> Void = {}) throws
    {
        guard clears == mark else {
            throw EngageError(
                .cancelled, "The user logged out while the login's answer was on its way: the session was not kept.", providerID: providerID
            )
        }
        try setTokens(newTokens, alongside: write)
    }

    /// Forgets the tokens (logout), in memory and in the store. A refresh in flight is discarded: its
    /// result is not stored, and later callers do not join it.
    public func clear() throws {
        clears &+= 1
        try endSession()
    }

    /// Forgets the tokens without counting a logout (a rejected refresh token ends the session too).
    private func endSession() throws {
        loaded = true
        generation &+= 1
        tokens = nil
        unsaved = false
        refreshes.detach()
        try store?.clear()
    }

    /// A usable access token, refreshing first if it is expired or about to expire; `nil` when there is
    /// no session.
    public func validAccessToken() async throws -> String? {
        guard let current = try currentTokens() else { return nil }
        let now = clock.now
        guard current.needsRefresh(at: now, window: proactiveRefreshWindow), current.accessToken != usedUntilRefused else {
            return current.accessToken
        }
        let expired = current.needsRefresh(at: now)
        do {
            return try await refresh().accessToken
        } catch let error as EngageError where !expired && error.code != .sessionExpired && error.code != .unauthorized {
            // Proactive refresh failed transiently: the current token still works. (`.unauthorized` means
            // the session was replaced by a logout meanwhile: the old token must not be used.)
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
        if let flight = refreshes.join() {
            joinedCallers += 1
            defer { joinedCallers -= 1 }
            return try await wait(for: flight)
        }
        guard let current = try currentTokens() else {
            throw EngageError(.unauthorized, "There is no session to refresh.", providerID: providerID)
        }
        try breaker.acquirePermission(providerID: providerID)
        let startGeneration = generation
        let flight = refreshes.run { id in try await self.performRefresh(from: current, id: id, startGeneration: startGeneration) }
        return try await wait(for: flight)
    }

    /// Waits for the refresh `flight`: `.cancelled` at once when the caller is cancelled, `.timeout`
    /// after `AuthSettings.refreshTimeoutSeconds`. A refresh that timed out is abandoned (cancelled,
    /// counted as a failure by the breaker, detached) so that the next call starts a new one.
    private func wait(for flight: SingleFlight<TokenPair>.Flight) async throws -> TokenPair {
        do {
            return try await flight.task.valueUnlessCancelled(providerID: providerID, timeout: (clock, refreshTimeout))
        } catch {
            if (error as? EngageError)?.code == .timeout, refreshes.detach(flight.id) {
                abandonedRefreshIDs.insert(flight.id)
                flight.task.cancel()
                breaker.recordFailure()
                logger.warning("A token refresh did not answer in time; abandoned", metadata: ["provider": "\(providerID)"])
            }
            throw error
        }
    }

    // MARK: - Internals

    private func performRefresh(from current: TokenPair, id: UInt64, startGeneration: UInt64) async throws -> TokenPair {
        defer {
            // The slot is cleared by the flight itself (a late one never clears a newer one).
            abandonedRefreshIDs.remove(id)
        }
        refreshRequests += 1
        let refreshed: TokenPair
        do {
            refreshed = try await refresher.refresh(current)
        } catch {
            let engageError = EngageError.wrapping(error, providerID: providerID)
            if abandonedRefreshIDs.contains(id) {
                // Counted as a failure when it was abandoned; its callers were answered then.
                throw engageError
            }
            switch refresher.classify(engageError) {
            case .rejected:
                breaker.recordSuccess()  // the service answered; it is not failing
                guard generation == startGeneration else {
                    // The old session's refresh token was refused, but a newer session (or a logout)
                    // replaced it meanwhile: neither clear nor announce anything.
                    return try tokensAfterSessionChange()
                }
                try? endSession()
                events?.publish(SessionEndedEvent(providerID: providerID, reason: "refresh_rejected"))
                logger.info("Refresh token rejected; session ended", metadata: ["provider": "\(providerID)"])
                throw EngageError(
                    .sessionExpired, "The session has ended; please log in again.", providerID: providerID,
                    httpStatus: engageError.httpStatus, recoverySuggestion: "Ask the user to log in again.",
                    underlyingError: engageError
                )
            case .transient:
                breaker.recordFailure()
                guard generation == startGeneration else { return try tokensAfterSessionChange() }
                logger.warning(
                    "Token refresh failed; tokens kept", metadata: ["provider": "\(providerID)", "error": "\(engageError.code)"])
                throw engageError.markedRetryable()
            }
        }
        breaker.recordSuccess()
        guard generation == startGeneration else { return try tokensAfterSessionChange() }
        var merged = stamped(refreshed)
        if merged.refreshToken == nil { merged.refreshToken = current.refreshToken }  // non-rotating schemes
        if merged.arrivedExpired {
            usedUntilRefused = merged.accessToken
            logger.warning(
                "A refreshed token looked expired on arrival: the device clock is off; it is used until the server refuses it",
                metadata: ["provider": "\(providerID)"]
            )
        }
        // Even a late answer of an abandoned refresh carries rotated tokens worth keeping; the slot of a
        // newer refresh is left alone (only this refresh's own slot is cleared, by the defer above).
        switchTo(merged)
        do {
            try store?.save(merged)
        } catch {
            // The server has rotated: these are the only valid tokens. Keep them and save them again on
            // the next use rather than fail the call (or leave only the spent token to the next launch).
            unsaved = true
            logger.error(
                "The refreshed tokens could not be saved; kept in memory and saved again on next use",
                metadata: ["provider": "\(providerID)", "error": "\(EngageError.wrapping(error).code)"]
            )
        }
        return merged
    }

    /// The answer for callers of a refresh that finished after the session changed (logout or a new
    /// login): the tokens held now, or `.unauthorized` when there is no session any more.
    private func tokensAfterSessionChange() throws -> TokenPair {
        logger.debug("Discarding a refresh that finished after the session changed", metadata: ["provider": "\(providerID)"])
        guard let now = tokens else {
            throw EngageError(
                .unauthorized, "There is no session: the user logged out while the session was being refreshed.",
                providerID: providerID, recoverySuggestion: "Log in again."
            )
        }
        return now
    }

    private func switchTo(_ newTokens: TokenPair) {
        generation &+= 1
        tokens = newTokens
        loaded = true
        unsaved = false
    }

    /// `tokens` with `receivedAt` set to now unless the caller set it.
    private func stamped(_ tokens: TokenPair) -> TokenPair {
        var tokens = tokens
        if tokens.receivedAt == nil { tokens.receivedAt = clock.now }
        return tokens
    }

    /// Saves rotated tokens that the store refused before; on failure they stay marked for next time.
    private func saveIfUnsaved() {
        guard unsaved, let tokens else { return }
        do {
            try store?.save(tokens)
            unsaved = false
            logger.info("The refreshed tokens kept in memory are saved now", metadata: ["provider": "\(providerID)"])
        } catch {
            logger.debug("The refreshed tokens still cannot be saved", metadata: ["provider": "\(providerID)"])
        }
    }

    private func loadIfNeeded() throws {
        guard !loaded else { return }
        do {
            tokens = try store?.load()
        } catch let error as EngageError where error.code == .crypto || error.code == .decoding {
            // Sealed under another key, tampered with, or written by an incompatible version: the session
            // is lost, but the user must be able to log in again rather than fail forever.
            logger.warning(
                "The stored session could not be opened; continuing without a session",
                metadata: ["provider": "\(providerID)", "error": "\(error.code)"]
            )
            tokens = nil
            try? store?.clear()
        }
        loaded = true
    }
}

extension TokenManager: CustomReflectable {
    /// Only the provider: the tokens it holds stay out of `dump` and debuggers.
    public nonisolated var customMirror: Mirror { Mirror(self, children: ["providerID": providerID]) }
}
