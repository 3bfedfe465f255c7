@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExploreGiftCards
import Foundation
import HTTPTypes
import Logging

/// The CTX ("DashSpend") gift-card API: e-mail sign-in, merchants, purchases and their delivery.
///
/// ```swift
/// let ctx = try CTXClient(configuration: CTXConfiguration(baseURL: url, clientID: "dash-wallet"), context: context)
/// try await ctx.requestCode(email: "ana@example.com")
/// try await ctx.verify(email: "ana@example.com", code: "123456")
/// let card = try await ctx.purchaseGiftCard(merchantID: merchantID, fiatAmount: Decimal(string: "25.50")!)
/// // … the wallet pays card.paymentURLs …
/// let delivered = try await ctx.waitForGiftCard(id: card.id)   // secrets now sealed in ctx.vault
/// ```
///
/// **Session.** The tokens of `verify-email` live in a core `TokenManager` (sealed in the Explore
/// namespace under ``tokenStorageKey``) with a refresher calling `POST refresh-token`: concurrent
/// callers share one refresh, rotated tokens are stored even if the caller was cancelled, a 5xx or
/// network failure keeps the tokens, a rejected refresh (400/401/403) clears them (the next call fails
/// with `.sessionExpired`, then `.unauthorized`), and a 401 on a protected call refreshes and resends
/// it once.
///
/// **Secrets.** Card numbers, PINs, barcode and redeem links, tokens, codes and e-mail addresses are
/// hidden from logs; delivered cards are sealed in ``vault``.
///
/// The client does not publish operation events: wrap its calls in `ProviderContext.perform`.
package struct CTXClient: Sendable {
    /// The key under which the session is sealed in the provider's namespace.
    package static let tokenStorageKey = "ctx_tokens"
    /// The JSON keys hidden from logs besides the core's defaults and ``GiftCardSecrets/wireKeys``.
    package static let sensitiveKeys: Set<String> = GiftCardSecrets.wireKeys.union([
        "code", "accessToken", "refreshToken", "email", "paymentId", "userEmail", "userId",
    ])

    /// Where the client talks to.
    package let configuration: CTXConfiguration
    /// The session.
    package let tokens: TokenManager
    /// The sealed store of delivered cards.
    package let vault: GiftCardVault
    /// Calls that send the session when there is one (or require it).
    let client: APIClient
    /// Calls that never send the session (sign-in, refresh).
    let publicClient: APIClient
    let clock: any EngageClock
    let logger: Logger
    /// Bumped by every sign-out (shared by copies of this client): a sign-in that was under way keeps
    /// no session.
    private let signOuts = Locked<UInt64>(0)
    /// The merchant of each card bought in this launch: CTX's card answers name the merchant, not its id.
    let purchasedMerchants = Locked<[String: String]>([:])

    /// A client for `configuration` over `context`'s transport stack, storage and clock.
    ///
    /// - Throws: `.invalidConfiguration` for a bad configuration or a base URL the network settings
    ///   refuse.
    package init(configuration: CTXConfiguration, context: ProviderContext) throws(EngageError) {
        try configuration.validate(for: context.providerID)
        var headers = HTTPFields()
        if let clientID = HTTPField.Name(CTXWire.clientIDHeader) { headers[clientID] = configuration.clientID }
        headers[.acceptLanguage] = configuration.acceptLanguage
        let publicClient = try context.makeAPIClient(
            baseURL: configuration.baseURL, policy: CTXErrorMapping.policy, defaultHeaders: headers, sensitiveKeys: Self.sensitiveKeys
        )
        let tokens = context.makeTokenManager(refresher: CTXTokenRefresher(client: publicClient), key: Self.tokenStorageKey)
        let client = try context.makeAPIClient(
            baseURL: configuration.baseURL, authorizer: BearerAuthorizer(tokens: tokens), policy: CTXErrorMapping.policy,
            defaultHeaders: headers, sensitiveKeys: Self.sensitiveKeys
        )
        self.configuration = configuration
        self.tokens = tokens
        self.vault = GiftCardVault(storage: context.storage, clock: context.clock, events: context.events)
        self.client = client
        self.publicClient = publicClient
        self.clock = context.clock
        self.logger = context.logger
    }

    // MARK: Session

    /// `POST login {email}`: CTX e-mails a one-time code to `email`.
    ///
    /// - Throws: `.invalidInput` for an empty address; mapped HTTP failures.
    package func requestCode(email: String) async throws {
        let email = try GiftCardInput.email(email)
        _ = try await publicClient.data(
            .post, CTXWire.Path.login, body: .json(CTXWire.LoginRequest(email: email)),
            options: CTXOperation.requestCode.options(authorization: .none)
        )
        logger.debug("CTX login code requested")
    }

    /// `POST verify-email {email, code}`: signs in with the e-mailed code and stores the tokens sealed.
    ///
    /// - Throws: `.exploreGiftCardCodeInvalid` for a refused code (HTTP 400/401);
    ///   `.exploreGiftCardUnexpectedAnswer` for a 2xx without both tokens (nothing is stored);
    ///   `.cancelled` when the user signed out (or the provider was reset) while the code was being
    ///   verified: that session is not kept.
    package func verify(email: String, code: String) async throws {
        let email = try GiftCardInput.email(email)
        let code = code.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !code.isEmpty else {
            throw EngageError(.exploreGiftCardCodeInvalid, "The verification code is empty.", providerID: .explore)
        }
        let signOutsBefore = signOuts.value
        let answer = try await publicClient.json(
            CTXWire.TokenAnswer.self, .post, CTXWire.Path.verifyEmail, body: .json(CTXWire.VerifyEmailRequest(email: email, code: code)),
            options: CTXOperation.verify.options(authorization: .none, allowsRetry: false)
        )
        let signedOutMeanwhile = EngageError(
            .cancelled, "The user signed out of CTX while the code was being verified.", providerID: .explore)
        guard signOuts.value == signOutsBefore else { throw signedOutMeanwhile }
        try await tokens.setTokens(answer.tokenPair(for: .verify))
        // A sign-out that came between the check and the install: the session it cleared is cleared again.
        guard signOuts.value == signOutsBefore else {
            try await tokens.clear()
            throw signedOutMeanwhile
        }
        logger.info("Signed in to CTX")
    }

    /// Forgets the session (CTX has no sign-out endpoint). Delivered cards stay in the vault.
    package func signOut() async throws {
        signOuts.withLock { $0 &+= 1 }
        try await tokens.clear()
        logger.info("Signed out of CTX")
    }

    /// Whether a CTX session is stored.
    package func isSignedIn() async throws -> Bool {
        try await tokens.hasSession()
    }
}
