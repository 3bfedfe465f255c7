// End-to-end tests of the user, login and card operations: the provider against the emulator over a
// real socket.
@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageWarply
import Foundation
import Logging
import EngageTestTraits
import Testing
import WarplyEmulator

@Suite("Warply user, logins and cards end to end", .bounded)
struct WarplyUserAndCardTests {
    static let email = "nikos@example.gr"
    /// A Luhn-valid test number (Visa).
    static let cardNumber = "4111111111111111"

    static func currentYear(_ harness: WarplyHarness) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = WarplyTimestamp.serverTimeZone
        return calendar.component(.year, from: harness.clock.now)
    }

    // MARK: Profile and passwords

    @Test("profile() returns the emulator's profile of the logged-in user")
    func profile() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn(email: Self.email)
        let profile = try await warply.profile()
        let stored = try #require(harness.emulator.profile(forEmail: Self.email))
        // What the emulator stored is what the client read (the emulator's own type, compared field by field).
        #expect(profile.userID == stored.userID && profile.email == stored.email && profile.points == stored.points)
        #expect(profile.firstName == stored.firstName && profile.lastName == stored.lastName && profile.msisdn == stored.msisdn)
        #expect(profile.loyaltyID == stored.loyaltyID && profile.tier == stored.tier && profile.birthday?.text == stored.birthday?.text)
        #expect(profile.email == Self.email)
        #expect(profile.points > 0)
        #expect(profile.loyaltyID?.hasPrefix("DEI") == true)
        #expect(profile.birthday?.date != nil)
        let msisdn = try #require(profile.msisdn)
        #expect(!profile.description.contains(msisdn))
        #expect(!profile.description.contains(Self.email))
        let sent = try #require(WarplyE2E.contextBodies(harness, WarplyPaths.authenticatedContext).last)
        #expect(sent.root == WarplyWire.Root.consumerData && sent.string("process") == "get")
        await engage.shutdown()
        await harness.stop()
    }

    @Test("changePassword succeeds; the same password twice is refused before sending; a short one by the server")
    func changePassword() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn(email: Self.email)
        let path = WarplyWire.path(.changePassword, appUUID: WarplyHarness.appUUID)
        try await warply.changePassword(oldPassword: "old-secret-1", newPassword: "new-secret-22")
        let sent = try #require(harness.requests(to: path).first)
        #expect(sent.header("authorization")?.hasPrefix("Bearer ") == true)
        #expect(sent.bodyText?.contains("new-secret-22") == true)

        await #expect { try await warply.changePassword(oldPassword: "same-secret", newPassword: "same-secret") } throws: {
            WarplyE2E.code($0) == .invalidInput
        }
        await #expect { try await warply.changePassword(oldPassword: "", newPassword: "new-secret-22") } throws: {
            WarplyE2E.code($0) == .invalidInput
        }
        #expect(harness.requests(to: path).count == 1)

        await #expect { try await warply.changePassword(oldPassword: "old-secret-1", newPassword: "short") } throws: { error in
            let error = error as? EngageError
            return error?.code == .warplyRequestRejected && error?.message.contains("at least 8") == true
        }
        #expect(harness.requests(to: path).count == 2)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("resetPassword reaches the emulator; a malformed email is refused before sending")
    func resetPassword() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        try await warply.resetPassword(email: "eleni@example.gr")
        #expect(harness.emulator.passwordResetRequests == ["eleni@example.gr"])
        let path = WarplyWire.path(.resetPassword, appUUID: WarplyHarness.appUUID)
        await #expect { try await warply.resetPassword(email: "eleni at example") } throws: { WarplyE2E.code($0) == .invalidInput }
        #expect(harness.requests(to: path).count == 1)
        #expect(harness.emulator.passwordResetRequests == ["eleni@example.gr"])
        await engage.shutdown()
        await harness.stop()
    }

    @Test("requestOTP sends the normalized number; a bad number is refused before sending")
    func requestOTP() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        try await warply.requestOTP(phoneNumber: "+30 691-234 5678")
        #expect(harness.emulator.otpRequests == ["+306912345678"])
        let path = WarplyWire.path(.requestOTP, appUUID: WarplyHarness.appUUID)
        for bad in ["12ab", "123", "+30 69x 234 5678", "", String(repeating: "9", count: 30)] {
            await #expect { try await warply.requestOTP(phoneNumber: bad) } throws: { WarplyE2E.code($0) == .invalidInput }
        }
        #expect(harness.requests(to: path).count == 1)
        #expect(harness.emulator.otpRequests == ["+306912345678"])
        // A number the provider accepts but the server does not is the server's refusal.
        await #expect { try await warply.requestOTP(phoneNumber: "0123456") } throws: { WarplyE2E.code($0) == .warplyRequestRejected }
        #expect(harness.requests(to: path).count == 2)
        await engage.shutdown()
        await harness.stop()
    }

    // MARK: Logins

    @Test("verifyTicket logs the Cosmote user in; a bad ticket is warplyRequestRejected")
    func verifyTicket() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        await #expect { try await warply.logIn(cosmoteGUID: "guid-77", ticket: "wrong-ticket") } throws: { error in
            let error = error as? EngageError
            return error?.code == .warplyRequestRejected && error?.message.contains("Invalid ticket") == true
        }
        #expect(try await warply.isLoggedIn() == false)
        try await warply.logIn(cosmoteGUID: "guid-77", ticket: "ticket-123")
        #expect(try await warply.isLoggedIn())
        #expect(try await warply.profile().email == "guid-77@\(WarplyEmulator.cosmoteEmailDomain)")
        let sent = try #require(harness.requests(to: WarplyWire.path(.verifyTicket, appUUID: WarplyHarness.appUUID)).last)
        #expect(sent.bodyText?.contains(WarplyHarness.appUUID) == true)
        #expect(harness.emulator.loginCount == 1)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("cosmoteUser logs in with basic auth; without partner credentials it is invalidConfiguration")
    func cosmoteUser() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        try await warply.logIn(cosmoteGUID: "GUID-5")
        #expect(try await warply.isLoggedIn())
        #expect(try await warply.profile().email == "guid-5@\(WarplyEmulator.cosmoteEmailDomain)")
        let path = WarplyWire.path(.cosmoteUser, appUUID: WarplyHarness.appUUID)
        let sent = try #require(harness.requests(to: path).first)
        #expect(sent.header("authorization") == "Basic " + Data("cosmote:s3cret".utf8).base64EncodedString())
        await engage.shutdown()

        let none = harness.warplyConfiguration { $0.partnerCredentials = nil }
        let (second, unconfigured) = try await harness.startProvider(none)
        await #expect { try await unconfigured.logIn(cosmoteGUID: "GUID-7") } throws: { WarplyE2E.code($0) == .invalidConfiguration }
        #expect(harness.requests(to: path).count == 1)
        await second.shutdown()
        await harness.stop()
    }

    @Test("cosmoteUser: a 401 without a challenge header is an error with httpStatus 401")
    func cosmoteUser401WithoutChallenge() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        let path = WarplyWire.path(.cosmoteUser, appUUID: WarplyHarness.appUUID)
        // A refusal without `WWW-Authenticate`; the test below covers the emulator's own answer with it.
        harness.host.faults.inject(
            FaultRule(
                .status(401, body: Data(#"{"error":"invalid_client"}"#.utf8), headers: ["Content-Type": "application/json"]),
                emulatorID: "warply", method: "POST", path: path, trigger: .times(1)
            ))
        await #expect { try await warply.logIn(cosmoteGUID: "GUID-6") } throws: { error in
            let error = error as? EngageError
            return error?.httpStatus == 401 && error?.providerID == .warply
        }
        #expect(try await warply.isLoggedIn() == false)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("cosmoteUser with wrong configured credentials is an error with httpStatus 401")
    func cosmoteUserWrongCredentials() async throws {
        let harness = try await WarplyHarness()
        let wrong = harness.warplyConfiguration { $0.partnerCredentials = .init(username: "cosmote", password: "wrong") }
        let (engage, warply) = try await harness.startProvider(wrong)
        await #expect { try await warply.logIn(cosmoteGUID: "GUID-6") } throws: { error in
            let error = error as? EngageError
            return error?.httpStatus == 401 && error?.providerID == .warply
        }
        #expect(try await warply.isLoggedIn() == false)
        #expect(harness.requests(to: WarplyWire.path(.cosmoteUser, appUUID: WarplyHarness.appUUID)).count == 1)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("deiLogin with a non-email is invalidInput and sends nothing")
    func deiLoginRefusesNonEmail() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        let path = WarplyWire.path(.deiLogin, appUUID: WarplyHarness.appUUID)
        for bad in ["maria", "maria@", "@example.gr", "maria@example", "ma ria@example.gr", ""] {
            await #expect { try await warply.logIn(deiEmail: bad) } throws: { WarplyE2E.code($0) == .invalidInput }
        }
        #expect(harness.requests(to: path).isEmpty)
        #expect(try await warply.isLoggedIn() == false)
        try await warply.logIn(deiEmail: "maria@example.gr")
        #expect(harness.requests(to: path).count == 1)
        #expect(try await warply.isLoggedIn())
        await engage.shutdown()
        await harness.stop()
    }

    // MARK: Cards

    @Test(
        "addCard returns a masked card; cards() and the emulator only know the masked number; only the request body holds it; logs never do"
    )
    func addCardKeepsTheNumberSecret() async throws {
        let harness = try await WarplyHarness()
        let capture = LogCapture()
        var configuration = try harness.configuration(harness.warplyConfiguration())
        configuration.logLevel = .trace
        let engage = try await Engage.start(
            configuration: configuration,
            environment: RegistryEnvironment(
                clock: harness.clock, random: SeededRandomSource(seed: 9), secretStore: InMemorySecretStore(),
                logger: capture.logger(level: .trace)
            )
        )
        let warply = try await engage.provider(WarplyProvider.self)
        try await warply.logIn(deiEmail: Self.email)

        let year = Self.currentYear(harness) + 2
        let newCard = WarplyNewCard(
            number: "4111 1111-1111 1111", issuer: "VISA", holder: "NIKOS PAPADOPOULOS", expirationMonth: 9, expirationYear: year)
        #expect(!newCard.description.contains(Self.cardNumber))
        let card = try await warply.addCard(newCard)
        #expect(card.maskedNumber == "**** **** **** 1111")
        #expect(card.issuer == "VISA")
        #expect(card.expirationMonth == "09")
        #expect(card.expirationYear == String(year))
        #expect(card.isDefault)
        #expect(!card.token.isEmpty)

        let cards = try await warply.cards()
        #expect(cards == [card])
        #expect(cards.allSatisfy { $0.maskedNumber?.contains("1111 1111") != true })
        let stored = harness.emulator.cards(forEmail: Self.email)
        // What the emulator stored is what the client read (the emulator's own type, compared key by key).
        #expect(stored.map(\.token) == [card.token] && stored.map(\.maskedNumber) == [card.maskedNumber])
        #expect(stored.map(\.issuer) == [card.issuer] && stored.map(\.isDefault) == [card.isDefault])
        #expect(!"\(stored)".contains(Self.cardNumber))

        // The full number is in exactly one place of the journal: the add_card request body.
        let entries = harness.host.journal.entries(for: "warply")
        let holding = entries.filter { entry in
            entry.body.range(of: Data(Self.cardNumber.utf8)) != nil
                || entry.headers.contains { $0.value.contains(Self.cardNumber) }
                || (entry.rawQuery ?? "").contains(Self.cardNumber)
        }
        #expect(holding.count == 1)
        let request = try #require(holding.first)
        #expect(request.path == WarplyPaths.authenticatedContext)
        #expect(try request.decodeBody(WarplyContextRequest.self).action == WarplyWire.Action.addCard)
        #expect(!request.headers.contains { $0.value.contains(Self.cardNumber) })

        // Trace logs were written (so the check below is not vacuous) and never hold the number.
        #expect(capture.entries.contains { $0.level == .trace })
        #expect(capture.contains("Card added"))
        #expect(capture.contains("**** **** **** 1111"))
        #expect(!capture.contains(Self.cardNumber))
        #expect(!capture.contains("4111 1111-1111 1111"))
        #expect(!capture.contains("4111 1111 1111 1111"))
        await engage.shutdown()
        #expect(!capture.contains(Self.cardNumber))
        await harness.stop()
    }

    @Test("a Luhn-invalid number, a past expiry, a bad month or an empty holder is invalidInput without a request")
    func addCardRefusesBadInput() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn(email: Self.email)
        let year = Self.currentYear(harness)
        let sentBefore = harness.requests(to: WarplyPaths.authenticatedContext).count
        let bad = [
            WarplyNewCard(number: "4111 1111 1111 1112", issuer: "VISA", holder: "A B", expirationMonth: 9, expirationYear: year + 2),
            WarplyNewCard(number: "4111 1111 1111 1111", issuer: "VISA", holder: "A B", expirationMonth: 12, expirationYear: year - 1),
            WarplyNewCard(number: "4111 1111 1111 1111", issuer: "VISA", holder: "A B", expirationMonth: 13, expirationYear: year + 1),
            WarplyNewCard(number: "4111 1111 1111 1111", issuer: "VISA", holder: "", expirationMonth: 9, expirationYear: year + 2),
            WarplyNewCard(number: "4111-abcd-1111-1111", issuer: "VISA", holder: "A B", expirationMonth: 9, expirationYear: year + 2),
            WarplyNewCard(number: "4242", issuer: "VISA", holder: "A B", expirationMonth: 9, expirationYear: year + 2),
        ]
        for card in bad {
            await #expect { try await warply.addCard(card) } throws: { WarplyE2E.code($0) == .invalidInput }
        }
        #expect(harness.requests(to: WarplyPaths.authenticatedContext).count == sentBefore)
        #expect(harness.emulator.cards(forEmail: Self.email).isEmpty)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("deleteCard removes the card; an unknown token is an error")
    func deleteCard() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn(email: Self.email)
        let year = Self.currentYear(harness) + 1
        let first = try await warply.addCard(
            WarplyNewCard(number: Self.cardNumber, issuer: "VISA", holder: "A B", expirationMonth: 1, expirationYear: year))
        let second = try await warply.addCard(
            WarplyNewCard(number: "5555 5555 5555 4444", issuer: "MASTERCARD", holder: "A B", expirationMonth: 2, expirationYear: year)
        )
        #expect(second.maskedNumber == "**** **** **** 4444")
        #expect(try await warply.cards().map(\.token) == [first.token, second.token])

        try await warply.deleteCard(token: first.token)
        let remaining = try await warply.cards()
        #expect(remaining.map(\.token) == [second.token])
        #expect(remaining.first?.isDefault == true)  // the default moved to the remaining card
        #expect(harness.emulator.cards(forEmail: Self.email).map(\.token) == [second.token])

        await #expect { try await warply.deleteCard(token: first.token) } throws: { error in
            let error = error as? EngageError
            return error?.code == .warplyRequestRejected && error?.message.contains("Unknown card") == true
        }
        await #expect { try await warply.deleteCard(token: "") } throws: { WarplyE2E.code($0) == .invalidInput }
        #expect(try await warply.cards().map(\.token) == [second.token])
        await engage.shutdown()
        await harness.stop()
    }

    @Test("card operations need a session")
    func cardsNeedSession() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        await #expect { try await warply.cards() } throws: { WarplyE2E.code($0) == .unauthorized }
        await #expect { try await warply.deleteCard(token: "card_1") } throws: { WarplyE2E.code($0) == .unauthorized }
        await #expect { try await warply.profile() } throws: { WarplyE2E.code($0) == .unauthorized }
        #expect(harness.requests(to: WarplyPaths.authenticatedContext).isEmpty)
        await engage.shutdown()
        await harness.stop()
    }
}
