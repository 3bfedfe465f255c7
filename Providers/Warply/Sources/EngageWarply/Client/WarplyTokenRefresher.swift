import EngageCore
import Foundation
import HTTPTypes

/// Refreshes a Warply session: `POST /oauth/{appUUID}/token` with the refresh token and the client
/// credentials of the login. Tokens rotate: the answer's refresh token replaces the old one.
///
/// A 5xx or network failure is attempted again (`tokens.refreshAttempts`, with the configured
/// delays) before it counts as one failure for the circuit breaker; a 4xx is a rejection (the
/// session ends) and is never retried, as is an answer refusing the refresh in its body status
/// (HTTP 200 with a status other than 1 and no tokens).
struct WarplyTokenRefresher: TokenRefresher {
    let sender: WarplySender
    let session: WarplySessionStore
    let settings: WarplyConfiguration.TokenSettings
    let clock: any EngageClock

    func refresh(_ tokens: TokenPair) async throws -> TokenPair {
        guard let refreshToken = tokens.refreshToken, let credentials = try session.clientCredentials() else {
            throw EngageError(.sessionExpired, "The Warply session cannot be refreshed: it has no refresh token or client credentials.", providerID: .warply)
        }
        let body = WarplyAuthRequest.Refresh(refreshToken: refreshToken, clientID: credentials.clientID, clientSecret: credentials.clientSecret)
        var attempt = 1
        while true {
            do {
                let answer = try await sender.send {
                    try sender.client.makeRequest(
                        .post, WarplyWire.path(.token, appUUID: sender.appUUID), body: .json(body),
                        options: RequestOptions(isRepeatable: false, allowsRetry: false, operationName: "refresh_token")
                    )
                } interpret: { .init(value: try sender.client.decode(WarplyTokenAnswer.self, from: $0), status: nil) }
                return TokenPair(accessToken: answer.accessToken, refreshToken: answer.refreshToken ?? refreshToken)
            } catch {
                let engageError = EngageError.wrapping(error, providerID: .warply)
                if engageError.code == .warplyRequestRejected {
                    // A refusal in the body status: the refresh token is not accepted, the session is over.
                    throw EngageError(.sessionExpired, engageError.message, providerID: .warply, underlyingError: engageError)
                }
                guard classify(engageError) == .transient, attempt < settings.refreshAttempts, !Task.isCancelled else { throw engageError }
                attempt += 1
                try await clock.sleep(for: settings.delay(beforeAttempt: attempt))
            }
        }
    }
}
