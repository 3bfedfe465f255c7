import Foundation
import HTTPTypes

/// The host app's side of a session it owns (the Youll model): EngageKit asks it for the token and
/// asks it to refresh, and never stores the token itself.
public protocol HostTokenProvider: Sendable {
    /// The current access token, or `nil` when the user is not logged in.
    func accessToken() async -> String?
    /// Obtains a new access token (for example by calling the app's own auth service).
    func refreshAccessToken() async throws -> String
}

/// Authorises with the host app's token: refreshes first when its JWT `exp` has passed (one refresh
/// shared by every waiting request), sends it as a bearer token, and asks the host to refresh once
/// after the access token was refused (a 401, or what the provider's classifier reads as one; none when
/// the host has no token any more), only when the refused token is still the current one, so a burst of
/// refusals of one token costs one refresh.
///
/// The host's `accessToken()` must return the new token once `refreshAccessToken()` has returned it.
@_spi(EngageProvider) public struct HostTokenAuthorizer: RequestAuthorizer {
    private let coordinator: HostTokenCoordinator

    /// An authoriser over `provider`'s session; `clock` decides when a JWT has expired and measures
    /// `refreshTimeout`, and errors are attributed to `providerID`.
    ///
    /// A call waits at most `refreshTimeout` (60 s, as `AuthSettings.refreshTimeoutSeconds`) for the
    /// host's refresh, then fails with a retryable `.timeout`; a refresh that did not answer in time is
    /// cancelled and abandoned, so the next call asks the host again.
    public init(
        provider: any HostTokenProvider, clock: any EngageClock = SystemClock(), providerID: ProviderID? = nil,
        refreshTimeout: Duration = .seconds(60)
    ) {
        coordinator = HostTokenCoordinator(provider: provider, clock: clock, providerID: providerID, refreshTimeout: refreshTimeout)
    }

    /// Adds `Authorization: Bearer <host token>`, refreshing an expired token first.
    public func authorize(_ request: inout HTTPRequestMessage) async throws {
        guard let token = try await coordinator.validToken(required: request.options.authorization == .required) else { return }
        request.head.headerFields[.authorization] = "Bearer \(token)"
    }

    /// For a refused access token, asks the host to refresh if that token is still current (or joins
    /// the refresh in flight); returns `true` when a different token is available for the resend.
    public func renew(after rejection: CredentialRejection) async throws -> Bool {
        guard rejection.credential == .accessToken else { return false }
        let header = rejection.request.head.headerFields[.authorization]
        let failedToken = header.flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst("Bearer ".count)) : nil }
        return try await coordinator.renew(afterRejectionOf: failedToken)
    }

    /// How many callers are waiting for a host refresh that another caller started (for tests).
    var joinedCallerCount: Int {
        get async { await coordinator.joinedCallerCount }
    }
}

/// Single-flight refresh of a host-provided token.
///
/// A refresh belongs to the host token it replaces: the refreshes are the core's single-flight keyed
/// by that token, so callers holding it share one refresh, a caller holding another token (another
/// user) never joins it, and its result is remembered only for that token. The refresh's own task
/// clears its key when it ends, so a caller that stops waiting never lets a second refresh of the same
/// token start.
actor HostTokenCoordinator {
    private let provider: any HostTokenProvider
    private let clock: any EngageClock
    private let providerID: ProviderID?
    /// The longest wait for the host's refresh.
    private let refreshTimeout: Duration
    /// The refreshes in flight, keyed by the host token each replaces.
    private let refreshes = KeyedSingleFlight<String, String>()
    /// The last refresh: the host's token it replaced and the token it returned. A caller that still
    /// reads the replaced token from the host (the host has not switched yet) uses the refreshed one
    /// instead of refreshing again; once the host hands out any other token (another user, a new
    /// login), the refreshed token is never used again.
    private var lastRefresh: (replaced: String, refreshed: String)?
    /// How many host refreshes were started (for tests).
    private(set) var refreshCount = 0
    /// How many callers are waiting for a refresh another caller started (for tests).
    private(set) var joinedCallerCount = 0

    init(provider: any HostTokenProvider, clock: any EngageClock, providerID: ProviderID?, refreshTimeout: Duration) {
        self.provider = provider
        self.clock = clock
        self.providerID = providerID
        self.refreshTimeout = refreshTimeout
    }

    func validToken(required: Bool) async throws -> String? {
        guard let token = await provider.accessToken() else {
            if required {
                throw EngageError(
                    .unauthorized, "Missing access token: this operation needs a logged-in user.",
                    providerID: providerID, recoverySuggestion: "Log the user in through the host app."
                )
            }
            return nil
        }
        guard isExpired(token) else { return token }
        if let refreshed = refreshedToken(replacing: token) { return refreshed }
        return try await refresh(replacing: token)
    }

    /// After a 401 for `failedToken`: joins the refresh of the host's current token if one is in
    /// flight; otherwise refreshes only if `failedToken` is still the token `authorize` would send.
    /// Returns whether to send again.
    func renew(afterRejectionOf failedToken: String?) async throws -> Bool {
        guard let hostToken = await provider.accessToken() else {
            // The user logged out through the host app: there is nothing to renew.
            return false
        }
        if let flight = refreshes.join(hostToken) {
            _ = try await value(of: flight, replacing: hostToken)
            return true
        }
        // The token `authorize` would send now without refreshing.
        let current = isExpired(hostToken) ? refreshedToken(replacing: hostToken) ?? hostToken : hostToken
        if current != failedToken {
            // Another caller refreshed (or the host replaced the token) after this request was sent.
            return true
        }
        _ = try await refresh(replacing: hostToken)
        return true
    }

    /// The last refresh's token, if it replaced `hostToken` (the host still hands out the token that
    /// refresh replaced) and has not expired.
    private func refreshedToken(replacing hostToken: String) -> String? {
        guard let lastRefresh, lastRefresh.replaced == hostToken, !isExpired(lastRefresh.refreshed) else { return nil }
        return lastRefresh.refreshed
    }

    private func isExpired(_ token: String) -> Bool {
        guard let expiry = (try? JWTClaims(decoding: token))?.expiresAt else { return false }
        return expiry <= clock.now
    }

    /// Asks the host for a token replacing `hostToken`, or joins the refresh of that same token in
    /// flight.
    func refresh(replacing hostToken: String) async throws -> String {
        let provider = self.provider
        let flight = refreshes.run(hostToken) { _ in
            let token = try await provider.refreshAccessToken()
            await self.remember(refreshed: token, replacing: hostToken)
            return token
        }
        if !flight.joined { refreshCount += 1 }
        return try await value(of: flight, replacing: hostToken)
    }

    private func remember(refreshed token: String, replacing hostToken: String) {
        lastRefresh = (hostToken, token)
    }

    /// The refresh's token: `.cancelled` at once when the caller is cancelled (nothing stays parked),
    /// `.timeout` after `refreshTimeout`, when the refresh is abandoned (cancelled and forgotten, so the
    /// next call asks the host again).
    private func value(of flight: KeyedSingleFlight<String, String>.Flight, replacing hostToken: String) async throws -> String {
        if flight.joined { joinedCallerCount += 1 }
        defer { if flight.joined { joinedCallerCount -= 1 } }
        do {
            return try await flight.task.valueUnlessCancelled(providerID: providerID, timeout: (clock, refreshTimeout))
        } catch {
            let failure = EngageError.wrapping(error, providerID: providerID)
            if failure.code == .timeout, refreshes.detach(hostToken, id: flight.id) {
                flight.task.cancel()
            }
            throw failure
        }
    }
}

extension HostTokenAuthorizer: CustomReflectable {
    /// No children: the host's token and the last refreshed one stay out of `dump` and debuggers.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension HostTokenCoordinator: CustomReflectable {
    /// No children: the tokens it remembers stay out of `dump` and debuggers.
    nonisolated var customMirror: Mirror { Mirror(self, children: [:]) }
}
