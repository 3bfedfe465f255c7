@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExploreGiftCards
import Foundation
import HTTPTypes
import Logging

/// The PiggyCards gift-card API (compiled only with the `PiggyCards` trait): sign-up with a
/// one-time password, catalogue, exchange rate, orders with a 1.5 % service fee, and delivery.
///
/// ```swift
/// let piggy = try PiggyCardsClient(configuration: PiggyCardsConfiguration(baseURL: url), context: context)
/// try await piggy.signUp(firstName: "Ana", lastName: "Silva", email: "ana@example.com", country: "US")
/// try await piggy.verify(otp: "123456")           // stores the generated password sealed, logs in
/// let cards = try await piggy.giftCards(country: "US", brandID: brand.id)
/// let order = try await piggy.createOrder(product: cards[0], denomination: 50, recipientEmail: "ana@example.com")
/// // … the wallet pays order.dashAmount to order.paymentAddress …
/// let delivered = try await piggy.waitForOrder(id: order.id)   // secrets sealed in piggy.vault
/// ```
///
/// **Session.** PiggyCards has no refresh token: the access token (`expires_in` 3600 s) lives in a
/// core `TokenManager` whose refresher logs in again with the sealed user id and generated password
/// when the token expires on the injected clock. Concurrent callers share one login.
///
/// The client does not publish operation events: wrap its calls in `ProviderContext.perform`.
package struct PiggyCardsClient: Sendable {
    /// The key under which the access token is sealed.
    package static let tokenStorageKey = "piggycards_tokens"
    /// The JSON keys hidden from logs besides the core's defaults and ``GiftCardSecrets/wireKeys``.
    package static let sensitiveKeys: Set<String> = GiftCardSecrets.wireKeys.union([
        "generatedPassword", "access_token", "userId", "recipientEmail", "payTo", "payMessage", "first_name", "last_name",
    ])

    /// Where the client talks to.
    package let configuration: PiggyCardsConfiguration
    /// The session (access token only).
    package let tokens: TokenManager
    /// The sealed store of delivered cards.
    package let vault: GiftCardVault
    /// Calls that send the session (re-logging in when it expired).
    let client: APIClient
    /// Calls that never send the session (sign-up, verification, login).
    let publicClient: APIClient
    let reLogin: PiggyCardsReLogin
    package let loginGate = PiggyCardsLoginGate()
    let storage: StorageNamespace
    let clock: any EngageClock
    let logger: Logger

    /// A client for `configuration` over `context`'s transport stack, storage and clock.
    package init(configuration: PiggyCardsConfiguration, context: ProviderContext) throws(EngageError) {
        try configuration.validate(for: context.providerID)
        let publicClient = try context.makeAPIClient(
            baseURL: configuration.baseURL, policy: PiggyCardsErrorMapping.policy, sensitiveKeys: Self.sensitiveKeys
        )
        let reLogin = PiggyCardsReLogin(client: publicClient, storage: context.storage, clock: context.clock)
        let tokens = context.makeTokenManager(refresher: reLogin, key: Self.tokenStorageKey)
        let client = try context.makeAPIClient(
            baseURL: configuration.baseURL, authorizer: BearerAuthorizer(tokens: tokens), policy: PiggyCardsErrorMapping.policy,
            sensitiveKeys: Self.sensitiveKeys
        )
        self.configuration = configuration
        self.tokens = tokens
        self.vault = GiftCardVault(storage: context.storage, clock: context.clock, events: context.events)
        self.client = client
        self.publicClient = publicClient
        self.reLogin = reLogin
        self.storage = context.storage
        self.clock = context.clock
        self.logger = context.logger
    }

    // MARK: Account

    /// `POST signup`: creates the account (PiggyCards e-mails a one-time password) and keeps its
    /// user id sealed. Returns the user id.
    @discardableResult
    package func signUp(firstName: String, lastName: String, email: String, country: String, state: String? = nil) async throws -> String {
        let email = try GiftCardInput.email(email)
        let country = try GiftCardInput.identifier(country, "country")
        let answer = try await publicClient.json(
            PiggyCardsWire.SignupAnswer.self, .post, "signup",
            body: .json(
                PiggyCardsWire.SignupRequest(firstName: firstName, lastName: lastName, email: email, country: country, state: state)),
            options: PiggyCardsOperation.signUp.options(authorization: .none)
        )
        // The official model reads the id as optional, but no login can follow without it.
        guard let userID = answer.userId, !userID.isEmpty else {
            throw EngageError(.exploreGiftCardUnexpectedAnswer, "PiggyCards answered the sign-up without a user id.", providerID: .explore)
        }
        try PiggyCardsAccount(userID: userID, email: email, country: country, state: state, signedUpAt: clock.now).save(to: storage)
        logger.info("PiggyCards account created")
        return userID
    }

    /// `POST verify-otp`: stores the generated password sealed, then logs in.
    ///
    /// - Throws: `.exploreGiftCardCodeInvalid` for a refused code; `.unauthorized` without a sign-up.
    package func verify(otp: String) async throws {
        guard var account = try PiggyCardsAccount.load(from: storage) else {
            throw EngageError(.unauthorized, "Sign up to PiggyCards before verifying.", providerID: .explore)
        }
        let ticket = await loginGate.signOutCount
        let answer = try await publicClient.json(
            PiggyCardsWire.VerifyOTPAnswer.self, .post, "verify-otp",
            body: .json(PiggyCardsWire.VerifyOTPRequest(email: account.email, otp: otp.trimmingCharacters(in: .whitespaces))),
            options: PiggyCardsOperation.verifyOTP.options(authorization: .none, allowsRetry: false)
        )
        account.password = answer.generatedPassword
        let verified = account
        let storage = storage
        try await loginGate.completeVerification(
            sentAt: ticket, save: { try verified.save(to: storage) }, logIn: { try await self.logIn() })
    }

    /// `POST login` with the sealed account; the token expires after `expires_in` on the clock.
    package func logIn() async throws {
        try await tokens.setTokens(reLogin.logIn())
        logger.info("Logged in to PiggyCards")
    }

    /// Whether an account with a password is stored (a token is obtained when needed).
    package func isSignedIn() async throws -> Bool {
        try PiggyCardsAccount.load(from: storage)?.password != nil
    }

    /// Forgets the token and the account. Delivered cards stay in the vault.
    ///
    /// A verification in flight is refused first (it will neither save its account nor log in), then
    /// the account goes (no new login can start), then a login already sent is waited for and the
    /// account removed again (a verification that was saving it), then the token is cleared: a login
    /// or a verification racing the sign-out never leaves its account or token behind.
    package func signOut() async throws {
        await loginGate.noteSignOut()
        try storage.removeValue(forKey: PiggyCardsAccount.storageKey)
        await loginGate.waitForLoginInFlight()
        try storage.removeValue(forKey: PiggyCardsAccount.storageKey)
        try await tokens.clear()
    }

    /// Logs in first when an account exists but no token does; concurrent callers share one login.
    func ensureSession() async throws {
        try await loginGate.ensureSession(tokens) { try await logIn() }
    }
}
