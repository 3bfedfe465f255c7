#if PiggyCards
    @_spi(EngageProvider) import EngageExplore
    @_spi(EngageProvider) import EngageSandbox
    import Foundation
    import HTTPTypes
    import Hummingbird
    @_spi(EngageProvider) import EngageCore

    /// A local, stateful PiggyCards backend (only with the `PiggyCards` trait), speaking the wire format
    /// of `EngageExplore`'s ``PiggyCardsWire``. Errors are `{"code":<status>,"message":…}`.
    ///
    /// Routes, relative to `http://127.0.0.1:<port>/piggycards`:
    ///
    /// | route | auth | behaviour |
    /// |---|---|---|
    /// | `POST signup {firstName,lastName,email,country,state?}` | none | `{userId}` and a one-time password (``otp(for:)``); known e-mail: 400 |
    /// | `POST verify-otp {email, otp}` | none | `{generatedPassword}`; wrong code: 400 |
    /// | `POST login {userId, password}` | none | `{access_token, token_type, expires_in: 3600}` (a JWT expiring on the host's clock); wrong: 401 |
    /// | `GET brands/{country}` | bearer | `{code,message,data:[brand]}` |
    /// | `GET giftcards/{country}?brandId=` | bearer | `{code,message,data:[product]}` (`price_type`, `denomination` "25" or "25,50,100", `discount_percentage`) |
    /// | `GET exchange-rate?currency=` | bearer | `{code,message,data:{currency, rate}}` |
    /// | `POST orders {orders:[…], recipientEmail, user}` | bearer | `{id, payTo, payMessage}`; no stock: 500 `{"code":500,"message":"Gift card <id> is out of stock"}`; bad denomination or over 2 500: 400 |
    /// | `GET orders/{id}` | bearer (owner) | `{id, status, cards}` |
    ///
    /// Orders go `Payment pending` → `Paid` (``markPaid(orderID:)``) → `Processing`
    /// (``Configuration/processingDelay`` later) → `Complete` with claim codes, PINs and barcode links
    /// (``Configuration/fulfillmentDelay`` after payment), or `Cancelled` (``cancel(orderID:)``). The
    /// emulator computes the 1.5 % fee itself, in decimal arithmetic, to check the client's integer one.
    public final class PiggyCardsEmulator: Emulator {
        /// How the emulated backend behaves.
        public struct Configuration: Sendable {
            /// After payment, when the order shows `Processing` (5 s).
            public var processingDelay: Duration
            /// After payment, when the order is `Complete` (10 s).
            public var fulfillmentDelay: Duration
            /// The price of one DASH in USD (`"30.00"`).
            public var dashRate: Decimal

            /// A configuration.
            public init(processingDelay: Duration = .seconds(5), fulfillmentDelay: Duration = .seconds(10), dashRate: Decimal = 30) {
                self.processingDelay = processingDelay
                self.fulfillmentDelay = fulfillmentDelay
                self.dashRate = dashRate
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
        /// A PiggyCards error body: `{"code":<status>,"message":…}`.
        static func piggy(_ status: HTTPResponse.Status, _ message: String) -> Self {
            let body = PiggyCardsWire.ErrorBody(code: status.code, message: message)
            return Self(status: status, body: (try? SandboxResponse.makeEncoder().encode(body)) ?? Data())
        }
    }
#endif
