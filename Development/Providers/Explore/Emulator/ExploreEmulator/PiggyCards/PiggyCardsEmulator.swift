#if PiggyCards
    @_spi(EngageProvider) import EngageSandbox
    import Foundation
    import HTTPTypes
    import Hummingbird
    @_spi(EngageProvider) import EngageCore

    /// A local, stateful PiggyCards backend (only with the `PiggyCards` trait), answering in the shapes
    /// the Dash wallet's official client reads (`PiggyCardsModels.swift` in dashwallet-ios; the recorded
    /// answers and their sources are in the Explore tests' `Fixtures/PiggyCards`). It reads and writes
    /// JSON with types of its own, never the client's.
    ///
    /// Routes, relative to `http://127.0.0.1:<port>/piggycards`:
    ///
    /// | route | auth | behaviour |
    /// |---|---|---|
    /// | `POST signup {first_name, last_name, email, country, state?}` | none | `{userId}` and a one-time password (``otp(for:)``); known e-mail: 400 `{"error"}` |
    /// | `POST verify-otp {email, otp}` | none | `{generatedPassword}`; wrong code: 400 `{"error": "Invalid verification code"}` |
    /// | `POST login {userId, password}` | none | `{access_token, token_type, expires_in: 3600}` (a JWT expiring on the host's clock); wrong: 401 |
    /// | `GET brands/{country}` | bearer | a bare array of `{id, name}` |
    /// | `GET giftcards/{country}?brandId=` | bearer | `{code, message, data: [card]}` (integer `id` and `brand_id`, `price_type`, `denomination` "25" or "25,50,100", percent `discount_percentage`) |
    /// | `GET exchange-rate?currency=USD` | bearer | a bare `{currency, exchange_rate, date_modified}`: DASH per dollar |
    /// | `POST orders {orders: [{productId, quantity, denomination, currency}], recipientEmail, user}` | bearer | `{id, payTo: "dash:<address>?amount=<DASH>", payMessage}`; no stock: 500 `{"code": 500, "message": "Gift card <id> is out of stock"}`; bad denomination or over 2 500: 400 `{"errors"}` |
    /// | `GET orders/{id}` | bearer (owner) | `{code, message, data: {orderId, payTo, deliveryTime, status, cards}}` |
    ///
    /// One route is the emulator's only: `GET _sandbox/inbox?email=` answers `{"code"}`, the one-time
    /// password sent to that e-mail.
    ///
    /// Orders go `Payment pending` → `Paid` (``markPaid(orderID:)``, or ``Configuration/autoPayDelay``
    /// after ordering) → `Processing`
    /// (``Configuration/processingDelay`` later) → `Complete` (``Configuration/fulfillmentDelay`` after
    /// payment), or `Cancelled` (``cancel(orderID:)``). A complete order's cards have a claim code, PIN
    /// and barcode link, or, for a range card, a claim link. The emulator computes the price itself, in
    /// decimal arithmetic (the wallet's 1.5 points off the discount), to check the client's integer one.
    public final class PiggyCardsEmulator: Emulator {
        /// How the emulated backend behaves.
        public struct Configuration: Sendable {
            /// After payment, when the order shows `Processing` (5 s).
            public var processingDelay: Duration
            /// After payment, when the order is `Complete` (10 s).
            public var fulfillmentDelay: Duration
            /// The price of one DASH in USD (30): orders ask `total / dashRate` DASH, and the exchange
            /// rate is its inverse.
            public var dashRate: Decimal

            /// After ordering, when an unpaid order counts as paid with no wallet involved (`nil`, the
            /// default: only ``PiggyCardsEmulator/markPaid(orderID:)`` pays). The sandbox sets it.
            public var autoPayDelay: Duration?

            /// A configuration.
            public init(
                processingDelay: Duration = .seconds(5), fulfillmentDelay: Duration = .seconds(10), dashRate: Decimal = 30,
                autoPayDelay: Duration? = nil
            ) {
                self.processingDelay = processingDelay
                self.fulfillmentDelay = fulfillmentDelay
                self.dashRate = dashRate
                self.autoPayDelay = autoPayDelay
            }
        }

        /// The path prefix, `piggycards` unless another id was given.
        public let id: String
        /// How it behaves.
        public let configuration: Configuration
        /// What it sells.
        public let catalogue: PiggyCardsEmulatorCatalogue

        let state: Locked<PiggyCardsEmulatorState>
        let environmentSlot = Locked<EmulatorEnvironment?>(nil)
        /// The seed the state started from, for `reset()`.
        let seed: UInt64
        static let accessKind = "piggycards-access"
        /// The access token lifetime announced in `expires_in`.
        static let tokenLifetimeSeconds = 3_600

        /// An emulator selling `catalogue`; `seed` drives ids, passwords and card secrets.
        public init(
            id: String = "piggycards", catalogue: PiggyCardsEmulatorCatalogue = .standard, configuration: Configuration = .init(),
            seed: UInt64 = SandboxConfiguration.defaultSeed
        ) {
            self.id = id
            self.catalogue = catalogue
            self.configuration = configuration
            self.seed = seed
            self.state = Locked(PiggyCardsEmulatorState(catalogue: catalogue, seed: seed))
        }

        /// Adds the routes listed in the type's documentation.
        public func addRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
            environmentSlot.withLock { $0 = environment }
            addAccountRoutes(to: group, environment: environment)
            addCatalogueRoutes(to: group, environment: environment)
            addOrderRoutes(to: group, environment: environment)
            // Not PiggyCards': the one-time password as read from the e-mail's inbox, for driving a
            // real-service client (`explore-example --piggycards-url`) against the sandbox.
            group.get("_sandbox/inbox") { request, _ in
                let email = request.uri.queryParameters["email"].map(String.init) ?? ""
                guard let otp = self.otp(for: email) else {
                    return GiftCardEmulatorRoutes.jsonResponse(["error": "No one-time password for that e-mail"], status: .notFound)
                }
                return GiftCardEmulatorRoutes.jsonResponse(["code": otp])
            }
        }

        /// The user id of the request's bearer token, or a 401.
        func authenticatedUser(_ request: Request, environment: EmulatorEnvironment) throws -> String {
            guard let claims = GiftCardEmulatorRoutes.bearerClaims(request, environment: environment, kind: Self.accessKind) else {
                throw GiftCardEmulatorRejection.piggy(.unauthorized, "Unauthorized")
            }
            return claims.subject
        }
    }

    extension GiftCardEmulatorRejection {
        /// A refusal of the catalogue and order calls, `{"errors": [{"code", "message"}]}`
        /// (`PiggyCardsAPIError` in the Dash wallet's `PiggyCardsModels.swift`; `code` a string).
        static func piggy(_ status: HTTPResponse.Status, _ message: String) -> Self {
            Self(status: status, body: GiftCardEmulatorRoutes.json(["errors": [["code": "\(status.code)", "message": message]]]))
        }

        /// A refusal of the account calls, `{"error": …}` (read by the wallet's `parseError`).
        static func piggyAccount(_ status: HTTPResponse.Status, _ message: String) -> Self {
            Self(status: status, body: GiftCardEmulatorRoutes.json(["error": message]))
        }

        /// An order of a card out of stock: HTTP 500 `{"code": 500, "message": "Gift card <id> is out of
        /// stock"}` (the shape is inferred: from this project's brief, not from a public client).
        static func outOfStock(_ productID: Int) -> Self {
            Self(
                status: .internalServerError,
                body: GiftCardEmulatorRoutes.json(["code": 500, "message": "Gift card \(productID) is out of stock"]))
        }
    }
#endif
