@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes
import Logging

extension WarplyProvider {
    /// Prepares the device now (the seed's `initialize`): with ``WarplyConfiguration/Signing-swift.enum/deviceRegistration``
    /// signing it obtains `web_id`/`api_key` unless the device is registered already; then it sends the
    /// device's details if Warply does not have them yet (best effort). Other operations do this on
    /// demand, so calling it is optional; it surfaces registration problems early.
    public func initialize() async throws(EngageError) {
        try await context.perform(WarplyOperation.initialize) {
            if configuration.signing == .deviceRegistration { _ = try await registrar.registration() }
            await syncDeviceInfo()
        }
    }

    /// Whether a user is logged in (a session is stored).
    ///
    /// Local: publishes no operation event (it reads the stored session, nothing is sent).
    public func isLoggedIn() async throws(EngageError) -> Bool {
        try await context.local { try await tokens.hasSession() }
    }

    /// Signs a new user up (`POST /user/{appUUID}/register`) and stores the session Warply opens for
    /// them, as a login does: the new user is logged in afterwards. The profile keeps the names and the
    /// phone number given; the account's language is the provider's current ``language``.
    ///
    /// - Throws: `.invalidInput` for an address that is not an email, an empty or overlong password, a
    ///   name over 128 characters or on more than one line, or a phone number that is not 6 to 15 digits
    ///   (nothing is sent); `.warplyRequestRejected` when Warply refuses the sign-up (an address that
    ///   has an account already, a password it finds too weak), with Warply's message.
    public func register(_ signUp: WarplySignUp) async throws(EngageError) {
        try await context.perform(WarplyOperation.registerUser) {
            try WarplyInput.email(signUp.email)
            try WarplyInput.password(signUp.password, name: "password")
            for (name, value) in [("firstName", signUp.firstName), ("lastName", signUp.lastName)] {
                if let value { try WarplyInput.identifier(value, name: name, limit: 128) }
            }
            let msisdn = try signUp.phoneNumber.map(WarplyInput.phoneNumber)
            let mark = await tokens.logoutMark
            let body = WarplyAuthRequest.RegisterUser(
                email: signUp.email, password: signUp.password, firstName: signUp.firstName, lastName: signUp.lastName, msisdn: msisdn,
                language: language.rawValue
            )
            let answer = try await client.result(
                WarplyTokenAnswer.self, .post, WarplyWire.path(.registerUser, appUUID: configuration.appUUID), body: .json(body),
                credentials: .signed
            )
            try await installSession(answer, unlessLoggedOutSince: mark)
        }
    }

    /// Refreshes the session now (normally this happens by itself, 5 minutes before expiry or after a
    /// 401). Concurrent callers share one refresh.
    ///
    /// - Throws: `.sessionExpired` when Warply rejected the refresh token (the session is cleared and
    ///   `SessionEndedEvent` published); `.circuitOpen` while the breaker is open; a retryable error
    ///   when Warply could not be reached (the tokens are kept).
    public func refreshToken() async throws(EngageError) {
        try await context.perform(WarplyOperation.refreshToken) {
            _ = try await tokens.refresh()
        }
    }

    /// Installs tokens the host app obtained itself (the seed's `updateRefreshToken`). The client
    /// credentials of the previous login, if any, are kept for refreshing.
    public func updateTokens(accessToken: String, refreshToken: String) async throws(EngageError) {
        try await context.perform(WarplyOperation.updateTokens) {
            guard !accessToken.isEmpty, !refreshToken.isEmpty, accessToken.count <= 16_384, refreshToken.count <= 16_384 else {
                throw EngageError(.invalidInput, "Both tokens must be non-empty (and at most 16 KB).", providerID: .warply)
            }
            try await tokens.setTokens(TokenPair(accessToken: accessToken, refreshToken: refreshToken))
        }
    }

    /// Logs out: tells Warply (best effort) and forgets the session and the in-memory state. The
    /// device registration is kept. `engage.logOut()` calls it for every identity-aware provider.
    public func logOut() async throws(EngageError) {
        try await context.perform(WarplyOperation.logout) {
            if let current = try await tokens.currentTokens() {
                do {
                    try await client.status(
                        .post, WarplyWire.path(.logout, appUUID: configuration.appUUID),
                        body: .json(WarplyAuthRequest.Logout(accessToken: current.accessToken, refreshToken: current.refreshToken)),
                        credentials: .signed
                    )
                } catch {
                    // The local session ends whatever the server says.
                    logger.notice(
                        "Warply logout request failed; the local session is cleared anyway",
                        metadata: [
                            "error": "\(EngageError.wrapping(error, providerID: .warply).code)"
                        ])
                }
            }
            // Clearing the session store also clears `state` (its clear hook).
            try await tokens.clear()
        }
    }

    /// Logs out: the former name of ``logOut()``.
    @available(*, deprecated, renamed: "logOut()")
    public func logout() async throws(EngageError) {
        try await logOut()
    }

    /// Installs the session of a login that began at `mark` (the token manager's ``TokenManager/logoutMark``):
    /// a logout or reset while its answer was on the way wins, and the login throws `.cancelled`.
    func installSession(_ answer: WarplyTokenAnswer?, unlessLoggedOutSince mark: UInt64) async throws {
        guard let answer else {
            throw EngageError(.decoding, "Warply's login answer has no tokens.", providerID: .warply)
        }
        let credentials = answer.clientID.flatMap { id in
            answer.clientSecret.map { WarplyClientCredentials(clientID: id, clientSecret: $0) }
        }
        await beforeSessionInstall.value?()
        // Credentials and tokens are written in one step on the token manager, after it moved to the new
        // session: a rejected refresh of the previous session can no longer delete the new credentials.
        let session = self.session
        let state = self.state
        try await tokens.setTokens(
            TokenPair(accessToken: answer.accessToken, refreshToken: answer.refreshToken), unlessClearedSince: mark
        ) {
            // A new session never inherits the previous user's data or client credentials; a login that
            // lost to a logout clears nothing (the check comes first).
            state.clear()
            try session.setClientCredentials(credentials)
        }
    }
}
