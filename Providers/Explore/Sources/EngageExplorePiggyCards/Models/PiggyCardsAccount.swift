@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExploreGiftCards
import Foundation
import HTTPTypes

/// The PiggyCards account kept sealed in the Explore namespace: the user id from `signup`, the
/// e-mail, and the generated password from `verify-otp` (used to log in again when the token
/// expires).
struct PiggyCardsAccount: Codable, Sendable, Hashable, SecretBearing {
    var userID: String
    var email: String
    var password: String?
    /// Where the account was registered, and when: the order's `user.metadata` (absent in an account
    /// stored before they were kept).
    var country: String?
    var state: String?
    var signedUpAt: Date?

    var description: String { "PiggyCardsAccount(<redacted>)" }

    static let storageKey = "piggycards_account"

    /// The `user` block of an order: the wallet's placeholders for the name and the IP address, this
    /// account's sign-up date (`yyyy-MM-dd`, UTC) and place.
    var orderUser: PiggyCardsWire.OrderUser {
        let registered = signedUpAt?.formatted(.iso8601.year().month().day())
        return PiggyCardsWire.OrderUser(
            registeredSince: registered ?? PiggyCardsWire.OrderUser.defaultRegisteredSince, country: country ?? "US", state: state ?? "")
    }

    static func load(from storage: StorageNamespace) throws -> PiggyCardsAccount? {
        try storage.sealedValue(PiggyCardsAccount.self, forKey: storageKey)
    }

    func save(to storage: StorageNamespace) throws {
        try storage.setSealedValue(self, forKey: Self.storageKey)
    }
}

/// Logs in again with the sealed account: PiggyCards has no refresh token, so an expired access
/// token (3600 s, on the injected clock) is replaced by a new login. A refused login (401) ends the
/// session; a 5xx or network failure keeps the current token.
struct PiggyCardsReLogin: TokenRefresher {
    let client: APIClient
    let storage: StorageNamespace
    let clock: any EngageClock

    func refresh(_ tokens: TokenPair) async throws -> TokenPair {
        try await logIn()
    }

    func logIn() async throws -> TokenPair {
        guard let account = try PiggyCardsAccount.load(from: storage), let password = account.password else {
            throw EngageError(
                .unauthorized, "There is no verified PiggyCards account.", providerID: .explore,
                recoverySuggestion: "Sign up and verify first.")
        }
        let issued = clock.now
        let answer = try await client.json(
            PiggyCardsWire.LoginAnswer.self, .post, "login",
            body: .json(PiggyCardsWire.LoginRequest(userId: account.userID, password: password)),
            options: PiggyCardsOperation.logIn.options(authorization: .none, allowsRetry: false)
        )
        guard !answer.accessToken.isEmpty else {
            throw EngageError(.exploreGiftCardUnexpectedAnswer, "PiggyCards answered the login without a token.", providerID: .explore)
        }
        let lifetime = answer.expiresIn ?? PiggyCardsWire.tokenLifetimeSeconds
        return TokenPair(accessToken: answer.accessToken, expiresAt: issued.addingTimeInterval(TimeInterval(lifetime)), issuedAt: issued)
    }
}
