@_spi(EngageProvider) import EngageCore
import Foundation

/// The device registration answer's context: `{"web_id":"...","api_key":"..."}`. Both are secrets of
/// the installation: stored sealed, never logged.
package struct WarplyRegistration: Codable, Sendable, Hashable, SecretBearing {
    /// The installation's id, sent as `loyalty-web-id`.
    package var webID: String
    /// The key that signs requests (`loyalty-signature = hex(sha256(api_key + loyalty-date))`).
    package var apiKey: String

    /// A registration.
    package init(webID: String, apiKey: String) {
        self.webID = webID
        self.apiKey = apiKey
    }

    enum CodingKeys: String, CodingKey {
        case webID = "web_id", apiKey = "api_key"
    }

    /// Decodes `{"web_id","api_key"}` (numbers are read as text); throws `keyNotFound` when either is
    /// missing or empty.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let webID = try container.looseString(forKey: .webID), !webID.isEmpty else {
            throw DecodingError.keyNotFound(
                CodingKeys.webID, .init(codingPath: container.codingPath, debugDescription: "The registration has no web_id."))
        }
        guard let apiKey = try container.looseString(forKey: .apiKey), !apiKey.isEmpty else {
            throw DecodingError.keyNotFound(
                CodingKeys.apiKey, .init(codingPath: container.codingPath, debugDescription: "The registration has no api_key."))
        }
        self.webID = webID
        self.apiKey = apiKey
    }

    /// `WarplyRegistration(<redacted>)`.
    package var description: String { "WarplyRegistration(<redacted>)" }
}

/// `GET /api/mobile/v2/{appUUID}/register/` answer: `{"status":"1","context":{"web_id","api_key"}}`.
package struct WarplyRegistrationResponse: Codable, Sendable {
    /// The body status.
    package var status: Int
    /// The registration, when `status` is 1.
    package var context: WarplyRegistration?

    /// An answer.
    package init(status: Int = 1, context: WarplyRegistration?) {
        self.status = status
        self.context = context
    }

    enum CodingKeys: String, CodingKey { case status, context }

    /// Decodes the answer; the registration is read only when `status` (string or number) is 1.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        status = try container.looseInt(forKey: .status) ?? 0
        context = status == WarplyWire.Status.success ? try container.decodeIfPresent(WarplyRegistration.self, forKey: .context) : nil
    }

    /// Encodes the server's form: `status` as a string, then the registration if any.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(String(status), forKey: .status)
        try container.encodeIfPresent(context, forKey: .context)
    }
}

/// Tokens issued by a login or a refresh. Read at the top level or inside `result` (both forms are
/// seen); `client_id`/`client_secret` come with logins only.
package struct WarplyTokenAnswer: Codable, Sendable, Hashable, SecretBearing {
    /// The access token (a JWT).
    package var accessToken: String
    /// The refresh token (a JWT; rotates on every refresh).
    package var refreshToken: String?
    /// The OAuth client id used for refreshes.
    package var clientID: String?
    /// The OAuth client secret used for refreshes.
    package var clientSecret: String?
    /// The token type, `Bearer`.
    package var tokenType: String?

    /// An answer.
    package init(
        accessToken: String, refreshToken: String?, clientID: String? = nil, clientSecret: String? = nil, tokenType: String? = "Bearer"
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.tokenType = tokenType
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token", refreshToken = "refresh_token", clientID = "client_id", clientSecret = "client_secret"
        case tokenType = "token_type"
    }

    enum EnvelopeKeys: String, CodingKey { case status, result, msg }

    /// Decodes the tokens at the top level or inside `result`; throws `keyNotFound` (with the server's
    /// `msg` when there is one) when there is no access token.
    package init(from decoder: any Decoder) throws {
        let envelope = try decoder.container(keyedBy: EnvelopeKeys.self)
        let container: KeyedDecodingContainer<CodingKeys>
        if envelope.contains(.result), try !envelope.decodeNil(forKey: .result) {
            container = try envelope.nestedContainer(keyedBy: CodingKeys.self, forKey: .result)
        } else {
            container = try decoder.container(keyedBy: CodingKeys.self)
        }
        guard let accessToken = try container.looseString(forKey: .accessToken), !accessToken.isEmpty else {
            let message = (try? envelope.looseString(forKey: .msg)) ?? "The answer has no access_token."
            throw DecodingError.keyNotFound(CodingKeys.accessToken, .init(codingPath: container.codingPath, debugDescription: message))
        }
        self.accessToken = accessToken
        refreshToken = try container.looseString(forKey: .refreshToken)
        clientID = try container.looseString(forKey: .clientID)
        clientSecret = try container.looseString(forKey: .clientSecret)
        tokenType = try container.looseString(forKey: .tokenType)
    }

    /// Tokens redacted.
    package var description: String { "WarplyTokenAnswer(<redacted>)" }
}
