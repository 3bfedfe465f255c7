@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExploreGiftCards
import Foundation

/// The request and answer bodies of the PiggyCards API, as the Dash wallet's official client writes and
/// reads them (`PiggyCardsModels.swift` in dashwallet-ios; each shape's source is in
/// `Development/Providers/Explore/Tests/Fixtures/PiggyCards/README.md`). The emulator has types of its own.
package enum PiggyCardsWire {
    /// The Dash wallet's service fee on PiggyCards cards: 1.5 percentage points (150 basis points) taken
    /// off the card's discount.
    package static let serviceFeeBasisPoints = 150
    /// The largest order, in the card currency (face value × quantity).
    package static let maxOrderAmount: Decimal = 2_500
    /// The access token lifetime PiggyCards announces (`expires_in`).
    package static let tokenLifetimeSeconds = 3_600

    /// `POST signup`: `first_name`, `last_name`, `email`, `country`, `state` (left out when absent).
    package struct SignupRequest: Codable, Sendable, Hashable, SecretBearing {
        /// The person's details hidden.
        package var description: String { "SignupRequest(country: \(country), <redacted>)" }
        /// Given name.
        package var firstName: String
        /// Family name.
        package var lastName: String
        /// E-mail address (receives the one-time password).
        package var email: String
        /// ISO country code, e.g. `US`.
        package var country: String
        /// State or region, when the country has them.
        package var state: String?
        /// A body.
        package init(firstName: String, lastName: String, email: String, country: String, state: String? = nil) {
            self.firstName = firstName
            self.lastName = lastName
            self.email = email
            self.country = country
            self.state = state
        }
        enum CodingKeys: String, CodingKey {
            case firstName = "first_name", lastName = "last_name", email, country, state
        }
    }

    /// The answer of `signup`: the new user's id (optional in the official model).
    package struct SignupAnswer: Codable, Sendable, Hashable {
        /// The new user's id.
        package var userId: String?
        /// An answer.
        package init(userId: String?) { self.userId = userId }
    }

    /// `POST verify-otp`.
    package struct VerifyOTPRequest: Codable, Sendable, Hashable, SecretBearing {
        /// The e-mail and the code hidden.
        package var description: String { "VerifyOTPRequest(email: <redacted>, otp: <redacted>)" }
        /// The e-mail the code was sent to.
        package var email: String
        /// The one-time password.
        package var otp: String
        /// A body.
        package init(email: String, otp: String) {
            self.email = email
            self.otp = otp
        }
    }

    /// The answer of `verify-otp`: the password to log in with (a secret, stored sealed).
    package struct VerifyOTPAnswer: Codable, Sendable, Hashable, SecretBearing {
        /// The generated password.
        package var generatedPassword: String
        /// An answer.
        package init(generatedPassword: String) { self.generatedPassword = generatedPassword }
        /// The password hidden.
        package var description: String { "VerifyOTPAnswer(generatedPassword: <redacted>)" }
    }

    /// `POST login`.
    package struct LoginRequest: Codable, Sendable, Hashable, SecretBearing {
        /// The password hidden.
        package var description: String { "LoginRequest(userId: \(userId), password: <redacted>)" }
        /// The user id from `signup`.
        package var userId: String
        /// The password from `verify-otp`.
        package var password: String
        /// A body.
        package init(userId: String, password: String) {
            self.userId = userId
            self.password = password
        }
    }

    /// The answer of `login` (there is no refresh token).
    package struct LoginAnswer: Codable, Sendable, Hashable, SecretBearing {
        /// The bearer token.
        package var accessToken: String
        /// `Bearer`.
        package var tokenType: String?
        /// Seconds until the token expires (3600).
        package var expiresIn: Int?
        /// An answer.
        package init(accessToken: String, tokenType: String? = "Bearer", expiresIn: Int? = PiggyCardsWire.tokenLifetimeSeconds) {
            self.accessToken = accessToken
            self.tokenType = tokenType
            self.expiresIn = expiresIn
        }
        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token", tokenType = "token_type", expiresIn = "expires_in"
        }
        /// The token hidden.
        package var description: String { "LoginAnswer(accessToken: <redacted>, expiresIn: \(expiresIn.map(String.init) ?? "nil"))" }
    }

    /// `{code, message, data}`, the envelope of the gift-card list and of an order's status.
    package struct Envelope<Payload: Decodable & Sendable>: Decodable, Sendable {
        /// The status code repeated in the body (200 on success).
        package var code: Int?
        /// A message.
        package var message: String?
        /// The payload.
        package var data: Payload?
        /// An envelope.
        package init(code: Int? = 200, message: String? = "OK", data: Payload?) {
            self.code = code
            self.message = message
            self.data = data
        }
    }

    /// A refusal's body, in any of the three forms PiggyCards uses: `{"error": …}` (the account calls),
    /// `{"errors": [{"code", "message"}], "fields"?}` (the catalogue and orders), and
    /// `{"code": 500, "message": …}` (out of stock; inferred). Each field is read on its own: one of the
    /// wrong type is ignored.
    package struct ErrorBody: Decodable, Sendable, Hashable {
        /// The status code repeated in the body.
        package var code: Int?
        /// What went wrong: `error`, else the first of `errors`, else `message`.
        package var message: String?

        private struct Detail: Decodable {
            var message: String?
        }
        private enum CodingKeys: String, CodingKey { case code, message, error, errors }

        /// Reads whichever form the body has.
        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            code = try? container.decodeIfPresent(Int.self, forKey: .code)
            let first = (try? container.decodeIfPresent([Detail].self, forKey: .errors))?.first?.message
            message =
                (try? container.decodeIfPresent(String.self, forKey: .error)) ?? first
                ?? (try? container.decodeIfPresent(String.self, forKey: .message))
        }
    }

    /// `GET exchange-rate?currency=`: a bare `{currency, exchange_rate, date_modified}`.
    package struct ExchangeRate: Decodable, Sendable, Hashable {
        /// The fiat currency.
        package var currency: String
        /// How much DASH one unit of `currency` buys (the official model's comment: "DASH per USD").
        package var dashPerUnit: Decimal
        /// When PiggyCards last changed the rate, as it writes it.
        package var dateModified: String?

        private enum CodingKeys: String, CodingKey {
            case currency, exchangeRate = "exchange_rate", dateModified = "date_modified"
        }

        /// Reads the rate as a number (or a decimal string).
        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            currency = try container.decode(String.self, forKey: .currency)
            guard let rate = try container.lenientDecimal(.exchangeRate) else {
                throw DecodingError.keyNotFound(
                    CodingKeys.exchangeRate, .init(codingPath: container.codingPath, debugDescription: "no exchange_rate"))
            }
            dashPerUnit = rate
            dateModified = try? container.decodeIfPresent(String.self, forKey: .dateModified)
        }
    }

    /// One line of `POST orders`: `productId` the product's integer id, `denomination` a JSON number.
    package struct OrderLine: Encodable, Sendable, Hashable {
        /// The gift card (product) id.
        package var productId: Int
        /// How many cards.
        package var quantity: Int
        /// The face value of each card.
        package var denomination: Decimal
        /// The card currency.
        package var currency: String
        /// A line.
        package init(productId: Int, quantity: Int, denomination: Decimal, currency: String) {
            self.productId = productId
            self.quantity = quantity
            self.denomination = denomination
            self.currency = currency
        }
    }

    /// The user block of `POST orders`, as the wallet fills it: a placeholder name and address, and
    /// the account's registration date and place.
    package struct OrderUser: Encodable, Sendable, Hashable {
        /// What the official clients send for the name.
        package static let placeholderName = "none"
        /// What the official clients send for the IP address (they do not send the device's).
        package static let placeholderIP = "192.168.100.1"
        /// The wallet's constant registration date, for an account stored before its date was kept.
        package static let defaultRegisteredSince = "2025-07-01"

        /// `registeredSince` (`yyyy-MM-dd`), `country`, `state`.
        package struct Metadata: Encodable, Sendable, Hashable {
            /// The sign-up date, `yyyy-MM-dd`.
            package var registeredSince: String
            /// ISO country code.
            package var country: String
            /// State or region (`""` when none).
            package var state: String
        }

        /// The name (`"none"`, as the wallet sends).
        package var name: String = placeholderName
        /// The IP address (the wallet's placeholder).
        package var ip: String = placeholderIP
        /// Registration date and place.
        package var metadata: Metadata

        /// A user block.
        package init(registeredSince: String, country: String, state: String) {
            metadata = Metadata(registeredSince: registeredSince, country: country, state: state)
        }
    }

    /// `POST orders`.
    package struct OrderRequest: Encodable, Sendable, Hashable, SecretBearing {
        /// The lines shown, the recipient hidden.
        package var description: String { "OrderRequest(orders: \(orders.count), recipientEmail: <redacted>)" }
        /// The lines.
        package var orders: [OrderLine]
        /// Who receives the cards.
        package var recipientEmail: String
        /// Who orders.
        package var user: OrderUser
        /// A body.
        package init(orders: [OrderLine], recipientEmail: String, user: OrderUser) {
            self.orders = orders
            self.recipientEmail = recipientEmail
            self.user = user
        }
    }

    /// The answer of `POST orders`: the order id and, usually, where to pay.
    package struct OrderAnswer: Decodable, Sendable, Hashable {
        /// The order id.
        package var id: String
        /// The payment URI, `dash:<address>?amount=<DASH>`.
        package var payTo: String?
        /// A message about the payment.
        package var payMessage: String?
    }

    /// A card of an order's status.
    package struct Card: Decodable, Sendable, Hashable, SecretBearing {
        /// The card's name (the brand).
        package var name: String?
        /// The claim code (secret).
        package var claimCode: String?
        /// The claim PIN (secret).
        package var claimPin: String?
        /// The barcode link (secret: it encodes the code).
        package var barcodeLink: String?
        /// A link that redeems the card (secret).
        package var claimLink: String?
        /// The card's own status, as PiggyCards writes it.
        package var cardStatus: String?

        /// Secrets hidden.
        package var description: String { "Card(<redacted>)" }
        /// The card's secrets.
        package var secrets: GiftCardSecrets {
            GiftCardSecrets(
                claimCode: claimCode.nonEmpty, claimPin: claimPin.nonEmpty, barcodeURL: barcodeLink.nonEmpty,
                redeemURL: claimLink.nonEmpty)
        }
    }

    /// The `data` of `GET orders/{id}`.
    package struct OrderData: Decodable, Sendable, Hashable, CustomStringConvertible {
        /// The order id.
        package var orderId: String
        /// The payment URI, when PiggyCards repeats it.
        package var payTo: String?
        /// When the cards are expected, as PiggyCards writes it.
        package var deliveryTime: String?
        /// `Payment pending`, `Paid`, `Processing`, `Complete` or `Cancelled`.
        package var status: String
        /// The cards (empty before `Complete`).
        package var cards: [Card]?
        /// Secrets hidden.
        package var description: String { "OrderData(orderId: \(orderId), status: \(status), cards: \(cards?.count ?? 0))" }
    }
}

extension Optional<String> {
    /// `nil` for an empty string too.
    fileprivate var nonEmpty: String? {
        switch self {
        case .some(let text) where !text.isEmpty: text
        default: nil
        }
    }
}
