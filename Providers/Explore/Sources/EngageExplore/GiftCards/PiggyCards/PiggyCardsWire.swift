#if PiggyCards
    import Foundation

    /// The request and answer bodies of the PiggyCards API, shared by the client and the emulator.
    public enum PiggyCardsWire {
        /// The service fee PiggyCards adds to every order: 1.5 % = 150 basis points.
        public static let serviceFeeBasisPoints = 150
        /// The largest order, in the card currency (face value × quantity).
        public static let maxOrderAmount: Decimal = 2_500
        /// The access token lifetime PiggyCards announces (`expires_in`).
        public static let tokenLifetimeSeconds = 3_600

        /// `POST signup`.
        public struct SignupRequest: Codable, Sendable, Hashable {
            /// Given name.
            public var firstName: String
            /// Family name.
            public var lastName: String
            /// E-mail address (receives the one-time password).
            public var email: String
            /// ISO country code, e.g. `US`.
            public var country: String
            /// State or region, when the country has them.
            public var state: String?
            /// A body.
            public init(firstName: String, lastName: String, email: String, country: String, state: String? = nil) {
                self.firstName = firstName
                self.lastName = lastName
                self.email = email
                self.country = country
                self.state = state
            }
        }

        /// The answer of `signup`.
        public struct SignupAnswer: Codable, Sendable, Hashable {
            /// The new user's id.
            public var userId: String
            /// An answer.
            public init(userId: String) { self.userId = userId }
        }

        /// `POST verify-otp`.
        public struct VerifyOTPRequest: Codable, Sendable, Hashable {
            /// The e-mail the code was sent to.
            public var email: String
            /// The one-time password.
            public var otp: String
            /// A body.
            public init(email: String, otp: String) {
                self.email = email
                self.otp = otp
            }
        }

        /// The answer of `verify-otp`: the password to log in with (a secret, stored sealed).
        public struct VerifyOTPAnswer: Codable, Sendable, Hashable, CustomStringConvertible {
            /// The generated password.
            public var generatedPassword: String
            /// An answer.
            public init(generatedPassword: String) { self.generatedPassword = generatedPassword }
            /// The password hidden.
            public var description: String { "VerifyOTPAnswer(generatedPassword: <redacted>)" }
        }

        /// `POST login`.
        public struct LoginRequest: Codable, Sendable, Hashable {
            /// The user id from `signup`.
            public var userId: String
            /// The password from `verify-otp`.
            public var password: String
            /// A body.
            public init(userId: String, password: String) {
                self.userId = userId
                self.password = password
            }
        }

        /// The answer of `login`.
        public struct LoginAnswer: Codable, Sendable, Hashable, CustomStringConvertible {
            /// The bearer token.
            public var accessToken: String
            /// `Bearer`.
            public var tokenType: String?
            /// Seconds until the token expires (3600).
            public var expiresIn: Int?
            /// An answer.
            public init(accessToken: String, tokenType: String? = "Bearer", expiresIn: Int? = PiggyCardsWire.tokenLifetimeSeconds) {
                self.accessToken = accessToken
                self.tokenType = tokenType
                self.expiresIn = expiresIn
            }
            enum CodingKeys: String, CodingKey {
                case accessToken = "access_token", tokenType = "token_type", expiresIn = "expires_in"
            }
            /// The token hidden.
            public var description: String { "LoginAnswer(accessToken: <redacted>, expiresIn: \(expiresIn.map(String.init) ?? "nil"))" }
        }

        /// `{code, message, data}`, the envelope of catalogue answers.
        public struct Envelope<Payload: Codable & Sendable>: Codable, Sendable {
            /// The status code repeated in the body (200 on success).
            public var code: Int?
            /// A message.
            public var message: String?
            /// The payload.
            public var data: Payload?
            /// An envelope.
            public init(code: Int? = 200, message: String? = "OK", data: Payload?) {
                self.code = code
                self.message = message
                self.data = data
            }
        }

        /// An error answer: `{"code":500,"message":"Gift card 2626 is out of stock"}`.
        public struct ErrorBody: Codable, Sendable, Hashable {
            /// The status code repeated in the body.
            public var code: Int?
            /// What went wrong.
            public var message: String?
            /// An error body.
            public init(code: Int?, message: String?) {
                self.code = code
                self.message = message
            }
        }

        /// A brand of `GET brands/{country}`.
        public struct Brand: Codable, Sendable, Hashable {
            /// The brand id (the `brandId` of `giftcards`).
            public var id: String
            /// The display name.
            public var name: String
            /// The logo, if any.
            public var logo: String?
            /// A brand.
            public init(id: String, name: String, logo: String? = nil) {
                self.id = id
                self.name = name
                self.logo = logo
            }
        }

        /// `GET exchange-rate?currency=` data: how much of `currency` one DASH buys.
        public struct ExchangeRate: Codable, Sendable, Hashable {
            /// The fiat currency.
            public var currency: String
            /// The price of one DASH in `currency`, as a decimal string.
            public var rate: String
            /// A rate.
            public init(currency: String, rate: String) {
                self.currency = currency
                self.rate = rate
            }
        }

        /// One line of `POST orders`.
        public struct OrderLine: Codable, Sendable, Hashable {
            /// The gift card (product) id.
            public var productId: String
            /// How many cards.
            public var quantity: Int
            /// The face value of each card, as a decimal string.
            public var denomination: String
            /// The card currency.
            public var currency: String
            /// A line.
            public init(productId: String, quantity: Int, denomination: String, currency: String) {
                self.productId = productId
                self.quantity = quantity
                self.denomination = denomination
                self.currency = currency
            }
        }

        /// The user block of `POST orders`.
        public struct OrderUser: Codable, Sendable, Hashable {
            /// The user id.
            public var userId: String
            /// The user's e-mail.
            public var email: String
            /// A user block.
            public init(userId: String, email: String) {
                self.userId = userId
                self.email = email
            }
        }

        /// `POST orders`.
        public struct OrderRequest: Codable, Sendable, Hashable {
            /// The lines.
            public var orders: [OrderLine]
            /// Who receives the cards.
            public var recipientEmail: String
            /// Who orders.
            public var user: OrderUser
            /// A body.
            public init(orders: [OrderLine], recipientEmail: String, user: OrderUser) {
                self.orders = orders
                self.recipientEmail = recipientEmail
                self.user = user
            }
        }

        /// The answer of `POST orders`: where to pay.
        public struct OrderAnswer: Codable, Sendable, Hashable {
            /// The order id.
            public var id: String
            /// The Dash address to pay.
            public var payTo: String
            /// The payment request (`dash:<address>?amount=<DASH>`).
            public var payMessage: String
            /// An answer.
            public init(id: String, payTo: String, payMessage: String) {
                self.id = id
                self.payTo = payTo
                self.payMessage = payMessage
            }
        }

        /// A delivered card of `GET orders/{id}`.
        public struct Card: Codable, Sendable, Hashable, CustomStringConvertible {
            /// The claim code (secret).
            public var claimCode: String?
            /// The claim PIN (secret).
            public var claimPin: String?
            /// The barcode link (secret: it encodes the code).
            public var barcodeLink: String?
            /// A card.
            public init(claimCode: String?, claimPin: String?, barcodeLink: String?) {
                self.claimCode = claimCode
                self.claimPin = claimPin
                self.barcodeLink = barcodeLink
            }
            /// Secrets hidden.
            public var description: String { "Card(<redacted>)" }
            /// The card's secrets.
            public var secrets: GiftCardSecrets { GiftCardSecrets(claimCode: claimCode, claimPin: claimPin, barcodeURL: barcodeLink) }
        }

        /// `GET orders/{id}`.
        public struct OrderStatusAnswer: Codable, Sendable, Hashable, CustomStringConvertible {
            /// The order id.
            public var id: String
            /// `Payment pending`, `Paid`, `Processing`, `Complete` or `Cancelled`.
            public var status: String
            /// The delivered cards (empty before `Complete`).
            public var cards: [Card]?
            /// An answer.
            public init(id: String, status: String, cards: [Card]? = nil) {
                self.id = id
                self.status = status
                self.cards = cards
            }
            /// Secrets hidden.
            public var description: String { "OrderStatusAnswer(id: \(id), status: \(status), cards: \(cards?.count ?? 0))" }
        }
    }
#endif
