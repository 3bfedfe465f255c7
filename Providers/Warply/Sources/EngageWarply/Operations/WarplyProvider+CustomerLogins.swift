@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes

/// Logins that exist for one Warply customer's app each: DEI's (by e-mail, no password) and
/// Cosmote's (a ticket, or partner credentials). An app of another Warply customer logs users in with
/// `engage.logIn(_:)` or ``WarplyProvider/register(_:)`` and never needs these.
extension WarplyProvider {
    /// Logs a user of DEI's app in by e-mail (Warply's `dei_login`, no password: DEI's app vouches for
    /// the user) and stores the session. `logIn(_:)` with a `UserIdentity` that has an e-mail calls it.
    ///
    /// - Throws: `.invalidInput` for an address that is not an email; `.warplyRequestRejected` when
    ///   Warply refuses the login.
    public func logIn(deiEmail email: String) async throws(EngageError) {
        try await context.perform(WarplyOperation.deiLogin) {
            try WarplyInput.email(email)
            let mark = await tokens.logoutMark
            let answer = try await client.result(
                WarplyTokenAnswer.self, .post, WarplyWire.path(.deiLogin, appUUID: configuration.appUUID),
                body: .json(WarplyAuthRequest.DEILogin(email: email)), credentials: .signed
            )
            try await installSession(answer, unlessLoggedOutSince: mark)
        }
    }

    /// Logs a user of Cosmote's app in with the one-time `ticket` Cosmote issued for `guid` (Warply's
    /// `verify_ticket`) and stores the session it opens.
    ///
    /// - Throws: `.invalidInput` for an empty or overlong GUID or ticket; `.warplyRequestRejected` when
    ///   Warply refuses the ticket.
    public func logIn(cosmoteGUID guid: String, ticket: String) async throws(EngageError) {
        try await context.perform(WarplyOperation.verifyTicket) {
            try WarplyInput.identifier(guid, name: "guid")
            try WarplyInput.identifier(ticket, name: "ticket")
            let mark = await tokens.logoutMark
            let answer = try await client.result(
                WarplyTokenAnswer.self, .post, WarplyWire.path(.verifyTicket, appUUID: configuration.appUUID),
                body: .json(WarplyAuthRequest.VerifyTicket(guid: guid, appUUID: configuration.appUUID, ticket: ticket)),
                credentials: .signed
            )
            try await installSession(answer, unlessLoggedOutSince: mark)
        }
    }

    /// Logs the Cosmote user `guid` in with the partner credentials (Warply's `cosmote_user`,
    /// `Authorization: Basic`) and stores the session.
    ///
    /// - Throws: `.invalidConfiguration` when `partnerCredentials` are not configured.
    public func logIn(cosmoteGUID guid: String) async throws(EngageError) {
        try await context.perform(WarplyOperation.cosmoteUser) {
            try WarplyInput.identifier(guid, name: "guid")
            let mark = await tokens.logoutMark
            let answer = try await client.result(
                WarplyTokenAnswer.self, .post, WarplyWire.path(.cosmoteUser, appUUID: configuration.appUUID),
                body: .json(WarplyAuthRequest.CosmoteUser(guid: guid)), credentials: .partner
            )
            try await installSession(answer, unlessLoggedOutSince: mark)
        }
    }
}

/// The former names of the customer-specific logins.
extension WarplyProvider {
    /// Logs a DEI user in by e-mail: the former name of ``logIn(deiEmail:)``.
    @available(*, deprecated, renamed: "logIn(deiEmail:)")
    public func deiLogin(email: String) async throws(EngageError) {
        try await logIn(deiEmail: email)
    }

    /// Logs a Cosmote user in with a ticket: the former name of ``logIn(cosmoteGUID:ticket:)``.
    @available(*, deprecated, renamed: "logIn(cosmoteGUID:ticket:)")
    public func verifyTicket(guid: String, ticket: String) async throws(EngageError) {
        try await logIn(cosmoteGUID: guid, ticket: ticket)
    }

    /// Logs a Cosmote user in with the partner credentials: the former name of ``logIn(cosmoteGUID:)``.
    @available(*, deprecated, renamed: "logIn(cosmoteGUID:)")
    public func cosmoteUser(guid: String) async throws(EngageError) {
        try await logIn(cosmoteGUID: guid)
    }
}
