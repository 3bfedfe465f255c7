import Foundation

/// The request and answer bodies of the CTX API, shared by the client (which encodes requests and
/// decodes answers) and the emulator (which does the opposite), so the two cannot drift apart.
public enum CTXWire {
    /// The paths, relative to the base URL.
    public enum Path {
        /// `POST login {email}`: e-mails a code.
        public static let login = "login"
        /// `POST verify-email {email, code}`: the token pair.
        public static let verifyEmail = "verify-email"
        /// `POST refresh-token {refreshToken}`: a rotated pair.
        public static let refreshToken = "refresh-token"
        /// `POST gift-cards`, `GET gift-cards?txid=`, `GET gift-cards/{id}`.
        public static let giftCards = "gift-cards"
        /// `GET merchants/{id}`.
        public static let merchants = "merchants"
    }

    /// The header carrying the client id.
    public static let clientIDHeader = "X-Client-Id"

    /// `POST login`.
    public struct LoginRequest: Codable, Sendable, Hashable {
        /// The user's e-mail address.
        public var email: String
        /// A body.
        public init(email: String) { self.email = email }
    }

    /// `POST verify-email`.
    public struct VerifyEmailRequest: Codable, Sendable, Hashable {
        /// The user's e-mail address.
        public var email: String
        /// The code e-mailed by `login`.
        public var code: String
        /// A body.
        public init(email: String, code: String) {
            self.email = email
            self.code = code
        }
    }

    /// `POST refresh-token`.
    public struct RefreshRequest: Codable, Sendable, Hashable {
        /// The current refresh token (spent by this request).
        public var refreshToken: String
        /// A body.
        public init(refreshToken: String) { self.refreshToken = refreshToken }
    }

    /// The answer of `verify-email` and `refresh-token`; both tokens must be present.
    public struct TokenAnswer: Codable, Sendable, Hashable, CustomStringConvertible {
        /// The bearer token.
        public var accessToken: String?
        /// The refresh token.
        public var refreshToken: String?
        /// An answer.
        public init(accessToken: String?, refreshToken: String?) {
            self.accessToken = accessToken
            self.refreshToken = refreshToken
        }
        /// Tokens hidden.
        public var description: String { "TokenAnswer(accessToken: <redacted>, refreshToken: <redacted>)" }
    }

    /// `POST gift-cards`.
    public struct PurchaseRequest: Codable, Sendable, Hashable {
        /// Always `DASH`.
        public var cryptoCurrency: String
        /// The card's currency, e.g. `USD`.
        public var fiatCurrency: String
        /// The face value as a decimal string, e.g. `"25.50"`.
        public var fiatAmount: String
        /// The CTX merchant id.
        public var merchantId: String
        /// A body.
        public init(cryptoCurrency: String = "DASH", fiatCurrency: String, fiatAmount: String, merchantId: String) {
            self.cryptoCurrency = cryptoCurrency
            self.fiatCurrency = fiatCurrency
            self.fiatAmount = fiatAmount
            self.merchantId = merchantId
        }
    }

    /// An error body: `{"errors":[{"message"}], "fields":{"fiatAmount":["above threshold"]}}`.
    public struct ErrorBody: Codable, Sendable, Hashable {
        /// One message.
        public struct Message: Codable, Sendable, Hashable {
            /// The text.
            public var message: String?
            /// A message.
            public init(message: String?) { self.message = message }
        }
        /// General messages.
        public var errors: [Message]?
        /// Messages per request field.
        public var fields: [String: [String]]?
        /// An error body.
        public init(errors: [Message]? = nil, fields: [String: [String]]? = nil) {
            self.errors = errors
            self.fields = fields
        }

        /// `"message; fiatAmount: above threshold"`, or `nil` when empty.
        public var summary: String? {
            var parts = (errors ?? []).compactMap(\.message).filter { !$0.isEmpty }
            for (field, messages) in (fields ?? [:]).sorted(by: { $0.key < $1.key }) where !messages.isEmpty {
                parts.append("\(field): \(messages.joined(separator: ", "))")
            }
            return parts.isEmpty ? nil : parts.joined(separator: "; ")
        }
    }
}
