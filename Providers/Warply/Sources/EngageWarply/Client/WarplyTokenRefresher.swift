@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes

/// Refreshes a Warply session: `POST /oauth/{appUUID}/token` with the refresh token and the client
/// credentials of the login. Tokens rotate: the answer's refresh token replaces the old one.
///
/// The refresh is sent once and never repeated (`allowsRetry: false`, not repeatable): a refresh that
/// may have reached the server spent its refresh token. `TokenManager` decides what a failure means: a
/// 4xx, or an answer refusing the refresh in its body status (HTTP 200 with a status other than 1), ends
/// the session; a 5xx or network failure keeps the tokens and counts towards the circuit breaker.
struct WarplyTokenRefresher: TokenRefresher {
    let client: APIClient
    let appUUID: String
    let session: WarplySessionStore

    func refresh(_ tokens: TokenPair) async throws -> TokenPair {
        guard let refreshToken = tokens.refreshToken, let credentials = try session.clientCredentials() else {
            throw EngageError(
                .sessionExpired, "The Warply session cannot be refreshed: it has no refresh token or client credentials.",
                providerID: .warply)
        }
        let body = WarplyAuthRequest.Refresh(
            refreshToken: refreshToken, clientID: credentials.clientID, clientSecret: credentials.clientSecret)
        let answer: WarplyTokenAnswer
        do {
            answer = try await client.json(
                WarplyTokenAnswer.self, .post, WarplyWire.path(.token, appUUID: appUUID), body: .json(body),
                options: RequestOptions(allowsRetry: false, operation: WarplyOperation.refreshToken)
            )
        } catch {
            // A refusal in the body status: the refresh token is not accepted, the session is over.
            guard error.code == .warplyRequestRejected else { throw error }
            throw EngageError(.sessionExpired, error.message, providerID: .warply, underlyingError: error)
        }
        return TokenPair(accessToken: answer.accessToken, refreshToken: answer.refreshToken ?? refreshToken)
    }
}
