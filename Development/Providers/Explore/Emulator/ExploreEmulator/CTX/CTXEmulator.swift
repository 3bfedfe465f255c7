@_spi(EngageProvider) import EngageSandbox
import Foundation
import Hummingbird
@_spi(EngageProvider) import EngageCore

/// A local, stateful CTX ("DashSpend") backend answering in the shapes the Dash wallet's official
/// client reads (`CTXSpendModels.swift` and `CTXSpendEndpoint.swift` in dashwallet-ios; the recorded
/// answers and their sources are in the Explore tests' `Fixtures/CTX`). It reads and writes those
/// shapes with its own types, never the SDK client's, so a client that guesses a key wrong fails.
///
/// Routes, relative to `http://127.0.0.1:<port>/ctx` (the client's base URL). Every route needs
/// `X-Client-Id` (else 403); errors are `{"errors":[{"message"}], "fields":{…}}`.
///
/// | route | auth | behaviour |
/// |---|---|---|
/// | `POST login {email}` | none | issues a 6-digit code (``loginCode(for:)``); 204 |
/// | `POST verify-email {email, code}` | none | `{accessToken, refreshToken}` (JWTs); wrong or expired code: 400 |
/// | `POST refresh-token {refreshToken}` | none | a rotated pair; the old refresh token is then refused (401) |
/// | `GET merchants/{id}` | optional | the merchant, in its current or legacy spelling; unknown: 404 |
/// | `POST gift-cards {cryptoCurrency, fiatCurrency, fiatAmount, merchantId}` | bearer | an `unpaid` card; disabled merchant: 409; amount not a decimal or above ``Configuration/purchaseThreshold``: 400 with `fields.fiatAmount`; not an accepted denomination: 422 |
/// | `GET gift-cards/{id}` | bearer (owner) | the card, moved along its life first; unknown: 404 |
/// | `GET gift-cards?txid=` | bearer | the user's card paid by that transaction (``markPaid(cardID:transactionID:)``), one object; none: 404 |
///
/// Two routes belong to the emulator only, for driving real-service clients against it: `GET
/// _sandbox/inbox?email=` (the login code) and `GET _sandbox/merchants` (see `addSandboxRoutes`).
///
/// Cards go `unpaid` → `paid` (``markPaid(cardID:transactionID:)``, or after ``Configuration/autoPayDelay``)
/// → `fulfilled` with a number, PIN and links ``Configuration/fulfillmentDelay`` later on the host's
/// clock, or `rejected` (``reject(cardID:)``, or merchants that reject after payment). Access tokens
/// are real JWTs from the host's issuer, expiring on its clock. Faults come from the host's injector.
///
/// ```swift
/// let ctx = CTXEmulator()                          // CTXEmulatorMerchant.defaultCatalogue()
/// let host = SandboxHost(emulators: [ctx])
/// let base = try await host.start().baseURL(for: "ctx")!
/// ```
public final class CTXEmulator: Emulator {
    /// How the emulated backend behaves.
    public struct Configuration: Sendable {
        /// Lifetime of access tokens (10 minutes by default).
        public var accessTokenLifetime: Duration
        /// Lifetime of refresh tokens (30 days).
        public var refreshTokenLifetime: Duration
        /// Lifetime of login codes (15 minutes).
        public var loginCodeLifetime: Duration
        /// How long after payment a card is fulfilled (10 s).
        public var fulfillmentDelay: Duration
        /// When set, cards count as paid this long after creation without a test hook.
        public var autoPayDelay: Duration?
        /// Amounts above this are refused with 400 `fields.fiatAmount ["above threshold"]` (2 000).
        public var purchaseThreshold: Decimal
        /// The `X-Client-Id` accepted; any non-empty value when `nil`.
        public var clientID: String?
        /// Dash's price in the card currency, for the payment URL's amount (30).
        public var dashPrice: Decimal

        /// A configuration.
        public init(
            accessTokenLifetime: Duration = .seconds(600), refreshTokenLifetime: Duration = .seconds(30 * 86_400),
            loginCodeLifetime: Duration = .seconds(900), fulfillmentDelay: Duration = .seconds(10), autoPayDelay: Duration? = nil,
            purchaseThreshold: Decimal = 2_000, clientID: String? = nil, dashPrice: Decimal = 30
        ) {
            self.accessTokenLifetime = accessTokenLifetime
            self.refreshTokenLifetime = refreshTokenLifetime
            self.loginCodeLifetime = loginCodeLifetime
            self.fulfillmentDelay = fulfillmentDelay
            self.autoPayDelay = autoPayDelay
            self.purchaseThreshold = purchaseThreshold
            self.clientID = clientID
            self.dashPrice = dashPrice
        }
    }

    /// The path prefix, `ctx` unless another id was given.
    public let id: String
    /// How it behaves.
    public let configuration: Configuration
    /// The merchants it sells, in the order given.
    public let merchants: [CTXEmulatorMerchant]

    let state: Locked<CTXEmulatorState>
    let environmentSlot = Locked<EmulatorEnvironment?>(nil)
    /// The seed the state started from, for `reset()`.
    let seed: UInt64

    /// An emulator selling `merchants` (the default catalogue when `nil`); `seed` drives codes, ids
    /// and card secrets.
    public init(
        id: String = "ctx", merchants: [CTXEmulatorMerchant]? = nil, configuration: Configuration = .init(),
        seed: UInt64 = SandboxConfiguration.defaultSeed
    ) {
        let merchants = merchants ?? CTXEmulatorMerchant.defaultCatalogue(seed: seed)
        self.id = id
        self.configuration = configuration
        self.merchants = merchants
        self.seed = seed
        self.state = Locked(CTXEmulatorState(merchants: merchants, seed: seed))
    }

    /// Adds the routes listed in the type's documentation.
    public func addRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
        environmentSlot.withLock { $0 = environment }
        addAuthRoutes(to: group, environment: environment)
        addGiftCardRoutes(to: group, environment: environment)
        addSandboxRoutes(to: group)
    }

    /// Checks `X-Client-Id`.
    func checkClient(_ request: Request) throws {
        let sent = HTTPField.Name("X-Client-Id").flatMap { request.headers[$0] } ?? ""
        guard !sent.isEmpty, configuration.clientID == nil || configuration.clientID == sent else {
            throw GiftCardEmulatorRejection.ctx(.forbidden, "Unknown client")
        }
    }
}
