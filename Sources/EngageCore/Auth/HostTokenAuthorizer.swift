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
/// after a 401.
public struct HostTokenAuthorizer: RequestAuthorizer {
    private let coordinator: HostTokenCoordinator

    public init(provider: any HostTokenProvider, clock: any EngageClock = SystemClock(), providerID: ProviderID? = nil) {
        coordinator = HostTokenCoordinator(provider: provider, clock: clock, providerID: providerID)
    }

    public func authorize(_ request: inout HTTPRequestMessage) async throws {
        guard let token = try await coordinator.validToken(required: request.options.authorization == .required) else { return }
        request.head.headerFields[.authorization] = "Bearer \(token)"
    }

    public func renewAfterUnauthorized(_ request: HTTPRequestMessage) async throws -> Bool {
        _ = try await coordinator.refresh()
        return true
    }
}

/// Single-flight refresh of a host-provided token.
actor HostTokenCoordinator {
    private let provider: any HostTokenProvider
    private let clock: any EngageClock
    private let providerID: ProviderID?
    private var inFlight: Task<String, any Error>?
    /// The token the last refresh returned: a caller that read the old token just before that refresh
    /// finished uses it instead of refreshing again.
    private var lastRefreshed: String?

    init(provider: any HostTokenProvider, clock: any EngageClock, providerID: ProviderID?) {
        self.provider = provider
        self.clock = clock
        self.providerID = providerID
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
        if let lastRefreshed, lastRefreshed != token, !isExpired(lastRefreshed) {
            return lastRefreshed
        }
        return try await refresh()
    }

    private func isExpired(_ token: String) -> Bool {
        guard let expiry = (try? JWTClaims(decoding: token))?.expiresAt else { return false }
        return expiry <= clock.now
    }

    func refresh() async throws -> String {
        if let inFlight { return try await inFlight.value }
        let provider = self.provider
        let task = Task { try await provider.refreshAccessToken() }
        inFlight = task
        defer { inFlight = nil }
        do {
            let token = try await task.value
            lastRefreshed = token
            return token
        } catch {
            throw EngageError.wrapping(error, providerID: providerID)
        }
    }
}
