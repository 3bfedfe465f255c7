@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExploreGiftCards
import Foundation

/// The request and answer bodies of the CTX API, shared by the client (which encodes requests and
/// decodes answers) and the emulator (which does the opposite), so the two cannot drift apart.
package enum CTXWire {
    /// The paths, relative to the base URL.
    package enum Path {
        /// `POST login {email}`: e-mails a code.
        package static let login = "login"
        /// `POST verify-email {email, code}`: the token pair.
        package static let verifyEmail = "verify-email"
        /// `POST refresh-token {refreshToken}`: a rotated pair.
        package static let refreshToken = "refresh-token"
        /// `POST gift-cards`, `GET gift-cards?txid=`, `GET gift-cards/{id}`.
        package static let giftCards = "gift-cards"
        /// `GET merchants/{id}`.
        package static let merchants = "merchants"
    }

    /// The header carrying the client id.
    package static let clientIDHeader = "X-Client-Id"

    /// `POST login`.
    package struct LoginRequest: Codable, Sendable, Hashable, SecretBearing {
        /// The user's e-mail address.
        package var email: String
        /// A body.
        package init(email: String) { self.email = email }
        /// The e-mail hidden.
        package var description: String { "LoginRequest(email: <redacted>)" }
    }

    /// `POST verify-email`.
    package struct VerifyEmailRequest: Codable, Sendable, Hashable, SecretBearing {
        /// The e-mail and the code hidden.
        package var description: String { "VerifyEmailRequest(email: <redacted>, code: <redacted>)" }
        /// The user's e-mail address.
        package var email: String
        /// The code e-mailed by `login`.
        package var code: String
        /// A body.
        package init(email: String, code: String) {
            self.email = email
            self.code = code
        }
    }

    /// `POST refresh-token`.
    package struct RefreshRequest: Codable, Sendable, Hashable, SecretBearing {
        /// The token hidden.
        package var description: String { "RefreshRequest(refreshToken: <redacted>)" }
        /// The current refresh token (spent by this request).
        package var refreshToken: String
        /// A body.
        package init(refreshToken: String) { self.refreshToken = refreshToken }
    }

    /// The answer of `verify-email` and `refresh-token`; both tokens must be present.
    package struct TokenAnswer: Codable, Sendable, Hashable, SecretBearing {
        /// The bearer token.
        package var accessToken: String?
        /// The refresh token.
        package var refreshToken: String?
        /// An answer.
        package init(accessToken: String?, refreshToken: String?) {
            self.accessToken = accessToken
            self.refreshToken = refreshToken
        }
        /// Tokens hidden.
        package var description: String { "TokenAnswer(accessToken: <redacted>, refreshToken: <redacted>)" }
    }

    /// `POST gift-cards`.
    package struct PurchaseRequest: Codable, Sendable, Hashable {
        /// Always `DASH`.
        package var cryptoCurrency: String
        /// The card's currency, e.g. `USD`.
        package var fiatCurrency: String
        /// The face value as a decimal string, e.g. `"25.50"`.
        package var fiatAmount: String
        /// The CTX merchant id.
        package var merchantId: String
        /// A body.
        package init(cryptoCurrency: String = "DASH", fiatCurrency: String, fiatAmount: String, merchantId: String) {
            self.cryptoCurrency = cryptoCurrency
            self.fiatCurrency = fiatCurrency
            self.fiatAmount = fiatAmount
            self.merchantId = merchantId
        }
    }

    /// An error body: `{"errors":[{"message"}], "fields":{"fiatAmount":["above threshold"]}}`.
    package struct ErrorBody: Codable, Sendable, Hashable {
        /// One message.
        package struct Message: Codable, Sendable, Hashable {
            /// The text.
            package var message: String?
            /// A message.
            package init(message: String?) { self.message = message }
        }
        /// General messages.
        package var errors: [Message]?
        /// Messages per request field.
        package var fields: [String: [String]]?
        /// An error body.
        package init(errors: [Message]? = nil, fields: [String: [String]]? = nil) {
            self.errors = errors
            self.fields = fields
        }

        /// `"message; fiatAmount: above threshold"`, or `nil` when empty.
        package var summary: String? {
            var parts = (errors ?? []).compactMap(\.message).filter { !$0.isEmpty }
            for (field, messages) in (fields ?? [:]).sorted(by: { $0.key < $1.key }) where !messages.isEmpty {
                parts.append("\(field): \(messages.joined(separator: ", "))")
            }
            return parts.isEmpty ? nil : parts.joined(separator: "; ")
        }
    }
}
