@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExploreGiftCards

/// Makes concurrent calls without a token share one `POST login`: the first caller starts the login,
/// the others join it and see its outcome (success or error). A later call with no token logs in
/// anew.
///
/// The login runs in its own task: a caller cancelled while it waits (the one that started it or one
/// that joined) returns `.cancelled` at once, and the login goes on for the others and stores its
/// token. The login's own task clears the bookkeeping when it ends, so a cancelled starter cannot let
/// a second login start beside the first.
package actor PiggyCardsLoginGate {
    private let logins = SingleFlight<Void>()
    /// Bumped by each sign-out: a verification sent before one never saves its account or logs in.
    private var signOuts: UInt64 = 0
    /// Callers that joined a login in flight instead of starting one (a test hook).
    package var joinedCallerCount: Int { logins.joinedCount }

    init() {}

    /// Returns once `tokens` holds a session, running `logIn` at most once for concurrent callers.
    ///
    /// - Throws: the login's error, or `.cancelled` when the caller is cancelled while it waits.
    func ensureSession(_ tokens: TokenManager, logIn: @escaping @Sendable () async throws -> Void) async throws {
        if try await tokens.hasSession() { return }
        try await logins.run { _ in try await logIn() }.task.valueUnlessCancelled(providerID: .explore)
    }

    /// The sign-out count, read before a one-time code is sent for verification.
    var signOutCount: UInt64 { signOuts }

    /// Marks a sign-out: a verification sent before it completes without an account or a login.
    func noteSignOut() {
        signOuts &+= 1
    }

    /// Completes a verification sent when the sign-out count was `ticket`: saves the account (`save`,
    /// here on the gate, so no sign-out comes between the check and the save), then logs in as the
    /// login in flight, which a sign-out waits for.
    ///
    /// - Throws: `.cancelled` when the user signed out meanwhile; else the save's or the login's error.
    func completeVerification(
        sentAt ticket: UInt64, save: @Sendable () throws -> Void, logIn: @escaping @Sendable () async throws -> Void
    ) async throws {
        guard signOuts == ticket else {
            throw EngageError(.cancelled, "The user signed out of PiggyCards while the code was being verified.", providerID: .explore)
        }
        try save()
        try await logins.run { _ in try await logIn() }.task.valueUnlessCancelled(providerID: .explore)
    }

    /// Waits for the login in flight, if any, to end (whatever its outcome), so that what follows
    /// (a sign-out) comes after the token it stores.
    func waitForLoginInFlight() async {
        guard let login = logins.current else { return }
        _ = await login.result
    }
}
