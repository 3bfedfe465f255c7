@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageWarply
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import EngageTestTraits
import Testing

// Unit tests: values holding secrets never show them when printed, debug-printed, interpolated in a
// collection or dumped (wire/warply.md "Never log tokens, passwords or card numbers; mask them").

/// Every way a value reaches a log or a console: `description`, `debugDescription` (also what a
/// collection prints for its elements), and `dump` (reflection, as debuggers use it).
private func printedForms(_ value: some Any) -> [String] {
    var dumped = ""
    dump(value, to: &dumped)
    let mirrored = Mirror(reflecting: value).children.map { "\($0.label ?? "_"): \(String(reflecting: $0.value))" }
    return [String(describing: value), String(reflecting: value), "\([value])", dumped] + mirrored
}

/// Records an issue for every printed form of `value` that contains one of `secrets`.
private func expectHidden(_ value: some Any, _ secrets: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    for text in printedForms(value) {
        for secret in secrets {
            #expect(!text.contains(secret), "'\(secret)' shows in: \(text)", sourceLocation: sourceLocation)
        }
    }
}

@Suite("Redaction of secret-holding values (unit)", .bounded)
struct WarplyRedactionUnitTests {
    @Test("partner credentials: no form shows the user name or the password")
    func partnerCredentials() {
        let credentials = WarplyConfiguration.PartnerCredentials(username: "partner-login", password: "pw-Secret-1")
        expectHidden(credentials, ["partner-login", "pw-Secret-1"])
        #expect(credentials.debugDescription == "PartnerCredentials(<redacted>)")
    }

    @Test("a new card shows only its masked number and issuer, never the number or the holder")
    func newCard() {
        let card = WarplyNewCard(
            number: "4111 1111 1111 1111", issuer: "VISA", holder: "MARIA PAPADOPOULOU", expirationMonth: 9, expirationYear: 2030)
        expectHidden(card, ["4111 1111 1111 1111", "4111111111111111", "MARIA", "PAPADOPOULOU"])
        for text in printedForms(card) { #expect(text.contains("VISA")) }
    }

    @Test("token answers hide every token and the client credentials")
    func tokenAnswer() {
        let answer = WarplyTokenAnswer(
            accessToken: "at-Secret-1", refreshToken: "rt-Secret-2", clientID: "cid-Secret-3", clientSecret: "cs-Secret-4")
        expectHidden(answer, ["at-Secret-1", "rt-Secret-2", "cid-Secret-3", "cs-Secret-4"])
    }

    @Test("the session's client credentials and tokens hide in every printed and reflected form")
    func sessionSecrets() {
        expectHidden(WarplyClientCredentials(clientID: "cid-xyzzy", clientSecret: "cs-xyzzy"), ["xyzzy"])
        expectHidden(TokenPair(accessToken: "at-xyzzy", refreshToken: "rt-xyzzy"), ["xyzzy"])
    }

    @Test("hostile variations of a configuration and of token and registration answers decode or fail cleanly, never trap")
    func hostileVariations() throws {
        let documents: [(Data, (Data) throws -> Void)] = [
            (
                try JSONEncoder().encode(WarplyConfiguration.preset(.development, appUUID: "f83dfde1145e4c2da69793abb2f579af")),
                { _ = try JSONDecoder().decode(WarplyConfiguration.self, from: $0) }
            ),
            (
                Data(#"{"status":"1","result":{"access_token":"a","refresh_token":"r","client_id":"c","client_secret":"s"}}"#.utf8),
                { _ = try JSONDecoder().decode(WarplyTokenAnswer.self, from: $0) }
            ),
            (
                Data(#"{"status":"1","context":{"web_id":"w","api_key":"k"}}"#.utf8),
                { _ = try JSONDecoder().decode(WarplyRegistrationResponse.self, from: $0) }
            ),
        ]
        for (index, (document, decode)) in documents.enumerated() {
            try decode(document)
            for variation in HostileJSON.variations(of: document, count: 300, seed: UInt64(40 + index)) {
                do { try decode(variation) } catch { #expect(error is DecodingError || error is EngageError, "\(type(of: error))") }
            }
        }
    }

    @Test("registrations hide web_id and api_key")
    func registration() {
        expectHidden(WarplyRegistration(webID: "web-Secret-1", apiKey: "key-Secret-2"), ["web-Secret-1", "key-Secret-2"])
    }

    @Test("market pass details mask the barcode but show the rest")
    func marketPass() {
        let details = WarplyMarketPassDetails(
            barcode: "9900001234567", totalDiscount: Decimal(string: "12.40") ?? 0, newOffers: 3, mapURL: "https://x.gr/map")
        expectHidden(details, ["9900001234567", "990000123"])
        for text in printedForms(details) {
            #expect(text.contains("67"))  // the last two characters, as coupons show them
            #expect(text.contains("12.4"))
            #expect(text.contains("newOffers: 3"))
        }
        #expect(WarplyMarketPassDetails().description.contains("barcode: nil"))
    }

    @Test("auth request bodies hide tokens, client credentials, passwords, tickets, e-mails and phone numbers")
    func authRequestBodies() {
        expectHidden(WarplyAuthRequest.Refresh(refreshToken: "rt-xyzzy", clientID: "cid-xyzzy", clientSecret: "cs-xyzzy"), ["xyzzy"])
        expectHidden(WarplyAuthRequest.Logout(accessToken: "at-xyzzy", refreshToken: "rt-xyzzy"), ["xyzzy"])
        expectHidden(WarplyAuthRequest.Logout(accessToken: "at-xyzzy", refreshToken: nil), ["xyzzy"])
        expectHidden(WarplyAuthRequest.ChangePassword(oldPassword: "old-xyzzy", newPassword: "new-xyzzy"), ["xyzzy"])
        expectHidden(WarplyAuthRequest.VerifyTicket(guid: "guid-xyzzy", appUUID: "app-1", ticket: "ticket-xyzzy"), ["xyzzy"])
        expectHidden(WarplyAuthRequest.CosmoteUser(guid: "guid-xyzzy"), ["xyzzy"])
        expectHidden(WarplyAuthRequest.DEILogin(email: "maria@example.gr"), ["maria", "example.gr"])
        expectHidden(WarplyAuthRequest.ResetPassword(email: "maria@example.gr"), ["maria", "example.gr"])
        expectHidden(WarplyAuthRequest.RequestOTP(phoneNumber: "+306912345678"), ["6912345678"])
        // Non-secret fields stay readable.
        #expect(WarplyAuthRequest.VerifyTicket(guid: "g", appUUID: "app-1", ticket: "t").description.contains("app-1"))
        #expect(WarplyAuthRequest.Refresh(refreshToken: "r", clientID: "c", clientSecret: "s").description.contains("refresh_token"))
    }

    @Test("auth request bodies have camelCase properties and keep the wire's snake_case keys")
    func authRequestPropertiesAndKeys() throws {
        let refresh = WarplyAuthRequest.Refresh(refreshToken: "r", clientID: "c", clientSecret: "s")
        #expect((refresh.grantType, refresh.refreshToken, refresh.clientID, refresh.clientSecret) == ("refresh_token", "r", "c", "s"))
        let decoded = try JSONDecoder().decode(
            WarplyAuthRequest.Refresh.self,
            from: Data(#"{"grant_type":"refresh_token","refresh_token":"r2","client_id":"c2","client_secret":"s2"}"#.utf8)
        )
        #expect((decoded.refreshToken, decoded.clientID, decoded.clientSecret) == ("r2", "c2", "s2"))
        let logout = WarplyAuthRequest.Logout(accessToken: "a", refreshToken: "r")
        #expect((logout.accessToken, logout.refreshToken) == ("a", "r"))
        let change = WarplyAuthRequest.ChangePassword(oldPassword: "o", newPassword: "n")
        #expect((change.oldPassword, change.newPassword) == ("o", "n"))
        #expect(WarplyAuthRequest.VerifyTicket(guid: "g", appUUID: "u", ticket: "t").appUUID == "u")
        #expect(WarplyAuthRequest.CosmoteUser(guid: "g").userIdentifier == "g")
        let user = try JSONDecoder().decode(WarplyAuthRequest.CosmoteUser.self, from: Data(#"{"user_identifier":"g2"}"#.utf8))
        #expect(user.userIdentifier == "g2")
    }
}
