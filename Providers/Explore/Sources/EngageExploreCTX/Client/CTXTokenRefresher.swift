@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExploreGiftCards
import Foundation
import HTTPTypes

/// `POST refresh-token {refreshToken}` → a rotated `{accessToken, refreshToken}`.
///
/// Sent without authorisation and never retried (a rotated refresh token must not be spent twice).
/// `TokenManager` does the rest: one refresh for all concurrent callers, rotated tokens stored even
/// when the caller was cancelled, tokens kept on a transient failure (5xx, network), cleared on a
/// rejection (400, 401, 403).
struct CTXTokenRefresher: TokenRefresher {
    let client: APIClient

    func refresh(_ tokens: TokenPair) async throws -> TokenPair {
        guard let refreshToken = tokens.refreshToken else {
            throw EngageError(.sessionExpired, "The CTX session has no refresh token.", providerID: .explore)
        }
        let answer = try await client.json(
            CTXWire.TokenAnswer.self, .post, CTXWire.Path.refreshToken, body: .json(CTXWire.RefreshRequest(refreshToken: refreshToken)),
            options: CTXOperation.refresh.options(authorization: .none, allowsRetry: false)
        )
        return try answer.tokenPair(for: .refresh)
    }
}
