@_spi(EngageProvider) import EngageCore
import Foundation

/// Request bodies of the auth and user-management families (shared with the emulator).
///
/// Properties are camelCase; `CodingKeys` keep the wire's snake_case names. Every body holding a
/// secret or personal value has a redacted `description`, `debugDescription` and `customMirror`, so
/// printing, `dump()` or a debugger never shows tokens, client secrets, passwords, tickets, e-mail
/// addresses or phone numbers.
package enum WarplyAuthRequest {
    /// `POST /oauth/{appUUID}/token`: `{"grant_type":"refresh_token","refresh_token","client_id","client_secret"}`.
    package struct Refresh: Codable, Sendable, Hashable, SecretBearing {
        /// The OAuth grant (`grant_type`), always `refresh_token` for bodies made by ``init(refreshToken:clientID:clientSecret:)``.
        package var grantType: String
        /// The refresh token being exchanged (`refresh_token`). Secret.
        package var refreshToken: String
        /// The OAuth client id from the login (`client_id`). Secret.
        package var clientID: String
        /// The OAuth client secret from the login (`client_secret`). Secret.
        package var clientSecret: String

        /// A refresh of `refreshToken` with the login's client credentials.
        package init(refreshToken: String, clientID: String, clientSecret: String) {
            grantType = "refresh_token"
            self.refreshToken = refreshToken
            self.clientID = clientID
            self.clientSecret = clientSecret
        }

        enum CodingKeys: String, CodingKey {
            case grantType = "grant_type", refreshToken = "refresh_token", clientID = "client_id", clientSecret = "client_secret"
        }

        /// The grant type; the token and the client credentials are redacted.
        package var description: String {
            "WarplyAuthRequest.Refresh(grantType: \(grantType), refreshToken: <redacted>, clientID: <redacted>, clientSecret: <redacted>)"
        }
    }

    /// `POST /oauth/{appUUID}/logout`: `{"access_token","refresh_token"}` (the refresh token only when known).
    package struct Logout: Codable, Sendable, Hashable, SecretBearing {
        /// The access token of the session to end (`access_token`). Secret.
        package var accessToken: String
        /// The refresh token to revoke (`refresh_token`), if known. Secret.
        package var refreshToken: String?

        /// A logout of the session holding these tokens.
        package init(accessToken: String, refreshToken: String?) {
            self.accessToken = accessToken
            self.refreshToken = refreshToken
        }

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token", refreshToken = "refresh_token"
        }

        /// Both tokens redacted (a missing refresh token shows as `nil`).
        package var description: String {
            "WarplyAuthRequest.Logout(accessToken: <redacted>, refreshToken: \(WarplyModelSupport.redacted(refreshToken)))"
        }
    }
}
