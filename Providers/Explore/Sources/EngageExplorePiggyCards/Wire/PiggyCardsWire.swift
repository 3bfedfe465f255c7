@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExploreGiftCards
import Foundation

/// The request and answer bodies of the PiggyCards API, shared by the client and the emulator.
package enum PiggyCardsWire {
    /// The Dash wallet's service fee on PiggyCards cards: 1.5 percentage points (150 basis points) taken
    /// off the card's discount.
    package static let serviceFeeBasisPoints = 150
    /// The largest order, in the card currency (face value × quantity).
    package static let maxOrderAmount: Decimal = 2_500
    /// The access token lifetime PiggyCards announces (`expires_in`).
    package static let tokenLifetimeSeconds = 3_600

    /// `POST signup`.
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
    }

    /// The answer of `signup`.
    package struct SignupAnswer: Codable, Sendable, Hashable {
        /// The new user's id.
        package var userId: String
        /// An answer.
        package init(userId: String) { self.userId = userId }
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

    /// The answer of `login`.
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

    /// `{code, message, data}`, the envelope of catalogue answers.
    package struct Envelope<Payload: Codable & Sendable>: Codable, Sendable {
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

    /// An error answer: `{"code":500,"message":"Gift card 2626 is out of stock"}`.
    package struct ErrorBody: Codable, Sendable, Hashable {
        /// The status code repeated in the body.
        package var code: Int?
        /// What went wrong.
        package var message: String?
        /// An error body.
        package init(code: Int?, message: String?) {
            self.code = code
            self.message = message
        }
    }

    /// A brand of `GET brands/{country}` (the public model has the wire's shape).
    package typealias Brand = PiggyCardsBrand

    /// `GET exchange-rate?currency=` data: how much of `currency` one DASH buys.
    package struct ExchangeRate: Codable, Sendable, Hashable {
        /// The fiat currency.
        package var currency: String
        /// The price of one DASH in `currency`, as a decimal string.
        package var rate: String
        /// A rate.
        package init(currency: String, rate: String) {
            self.currency = currency
            self.rate = rate
        }
    }

    /// One line of `POST orders`.
    package struct OrderLine: Codable, Sendable, Hashable {
        /// The gift card (product) id.
        package var productId: String
        /// How many cards.
        package var quantity: Int
        /// The face value of each card, as a decimal string.
        package var denomination: String
        /// The card currency.
        package var currency: String
        /// A line.
        package init(productId: String, quantity: Int, denomination: String, currency: String) {
            self.productId = productId
            self.quantity = quantity
            self.denomination = denomination
            self.currency = currency
        }
    }

    /// The user block of `POST orders`.
    package struct OrderUser: Codable, Sendable, Hashable, SecretBearing {
        /// The person's details hidden.
        package var description: String { "OrderUser(<redacted>)" }
        /// The user id.
        package var userId: String
        /// The user's e-mail.
        package var email: String
        /// A user block.
        package init(userId: String, email: String) {
            self.userId = userId
            self.email = email
        }
    }

    /// `POST orders`.
    package struct OrderRequest: Codable, Sendable, Hashable, SecretBearing {
        /// The lines shown, the recipient and the user hidden.
        package var description: String { "OrderRequest(orders: \(orders.count), recipientEmail: <redacted>, user: <redacted>)" }
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

    /// The answer of `POST orders`: where to pay.
    package struct OrderAnswer: Codable, Sendable, Hashable {
        /// The order id.
        package var id: String
        /// The Dash address to pay.
        package var payTo: String
        /// The payment request (`dash:<address>?amount=<DASH>`).
        package var payMessage: String
        /// An answer.
        package init(id: String, payTo: String, payMessage: String) {
            self.id = id
            self.payTo = payTo
            self.payMessage = payMessage
        }
    }

    /// A delivered card of `GET orders/{id}`.
    package struct Card: Codable, Sendable, Hashable, SecretBearing {
        /// The claim code (secret).
        package var claimCode: String?
        /// The claim PIN (secret).
        package var claimPin: String?
        /// The barcode link (secret: it encodes the code).
        package var barcodeLink: String?
        /// A card.
        package init(claimCode: String?, claimPin: String?, barcodeLink: String?) {
            self.claimCode = claimCode
            self.claimPin = claimPin
            self.barcodeLink = barcodeLink
        }
        /// Secrets hidden.
        package var description: String { "Card(<redacted>)" }
        /// The card's secrets.
        package var secrets: GiftCardSecrets { GiftCardSecrets(claimCode: claimCode, claimPin: claimPin, barcodeURL: barcodeLink) }
    }

    /// `GET orders/{id}`.
    package struct OrderStatusAnswer: Codable, Sendable, Hashable, CustomStringConvertible {
        /// The order id.
        package var id: String
        /// `Payment pending`, `Paid`, `Processing`, `Complete` or `Cancelled`.
        package var status: String
        /// The delivered cards (empty before `Complete`).
        package var cards: [Card]?
        /// An answer.
        package init(id: String, status: String, cards: [Card]? = nil) {
            self.id = id
            self.status = status
            self.cards = cards
        }
        /// Secrets hidden.
        package var description: String { "OrderStatusAnswer(id: \(id), status: \(status), cards: \(cards?.count ?? 0))" }
    }
}
