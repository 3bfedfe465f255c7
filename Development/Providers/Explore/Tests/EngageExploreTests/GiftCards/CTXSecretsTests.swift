@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageExploreCTX
@_spi(EngageProvider) @testable import EngageExploreGiftCards
#if PiggyCards
    @testable import EngageExplorePiggyCards
#endif
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
import ExploreEmulator
import Foundation
import GRDB
import EngageTestTraits
import Testing

extension GiftCardSuites {
    @Suite("CTX secrets: never logged, stored only sealed", .bounded)
    struct CTXSecretsTests {
        @Test("a whole purchase logs bodies at trace level without card number, PIN, links, tokens, code or e-mail")
        func purchaseLogsNoSecrets() async throws {
            let harness = try await CTXHarness(configuration: .init(fulfillmentDelay: .zero, clientID: CTXHarness.clientID))
            let email = "secret.person@example.com"
            try await harness.client.requestCode(email: email)
            let code = try #require(harness.emulator.loginCode(for: email))
            try await harness.client.verify(email: email, code: code)
            let tokens = try #require(try await harness.client.tokens.currentTokens())
            let card = try await harness.client.purchaseGiftCard(merchantID: harness.merchant(0).id, fiatAmount: 60)
            harness.emulator.markPaid(cardID: card.id)
            let delivered = try await harness.client.waitForGiftCard(id: card.id)
            let secrets = [
                try #require(delivered.secrets.number), try #require(delivered.secrets.pin), try #require(delivered.secrets.barcodeURL),
                try #require(delivered.secrets.redeemURL), tokens.accessToken, try #require(tokens.refreshToken), email, code,
            ]
            let logs = harness.test.logs
            #expect(logs.entries.count >= 8)
            #expect(logs.contains("/gift-cards"))  // requests were logged, with their bodies
            #expect(logs.contains("fiatAmount"))
            for secret in secrets {
                #expect(!logs.contains(secret), "a secret shows in the logs: \(logs.text.prefix(3000))")
            }
            await harness.stop()
        }

        @Test("delivered secrets and tokens are sealed: the database never holds them in plain text")
        func sealedAtRest() async throws {
            let harness = try await CTXHarness(configuration: .init(fulfillmentDelay: .zero, clientID: CTXHarness.clientID))
            try await harness.signIn()
            let card = try await harness.client.purchaseGiftCard(merchantID: harness.merchant(5).id, fiatAmount: 250)
            harness.emulator.markPaid(cardID: card.id)
            let delivered = try await harness.client.waitForGiftCard(id: card.id)
            let number = try #require(delivered.secrets.number)
            let pin = try #require(delivered.secrets.pin)
            let access = try #require(try await harness.client.tokens.currentTokens()).accessToken
            let rows = try harness.test.context.database.writer.read { db in
                try Row.fetchAll(db, sql: "SELECT key, value, is_sealed FROM engage_kv WHERE namespace = 'explore'")
            }
            #expect(rows.count == 2)  // the session and the card
            for row in rows {
                #expect(row["is_sealed"] as Bool? == true)
                let value: Data = row["value"]
                let text = String(decoding: value, as: UTF8.self)
                for secret in [number, pin, access] { #expect(!text.contains(secret)) }
            }
            // Signing out keeps the purchased cards.
            try await harness.client.signOut()
            #expect(try harness.client.vault.card(provider: .ctx, id: card.id)?.secrets.number == number)
            await harness.stop()
        }

        @Test("no printed form of a card, its secrets or a stored card shows a secret")
        func printedFormsAreRedacted() {
            let secrets = GiftCardSecrets(
                number: "6006123456789012", pin: "98765432", claimCode: "CLAIM-ABC-1", claimPin: "4455-9",
                barcodeURL: "https://x.test/barcode/s3cret", redeemURL: "https://x.test/redeem/s3cret2"
            )
            let card = CTXGiftCard(
                id: "card-1", status: .fulfilled, merchantID: "m-1", fiatAmount: 25, fiatCurrency: "USD", secrets: secrets)
            let stored = StoredGiftCard(provider: .ctx, id: "card-1", secrets: secrets, storedAt: Date(timeIntervalSince1970: 0))
            let hidden = ["6006123456789012", "98765432", "CLAIM-ABC-1", "4455-9", "barcode/s3cret", "redeem/s3cret2"]
            for text in printedForms(secrets) + printedForms(card) + printedForms(stored) {
                for secret in hidden { #expect(!text.contains(secret), "\(text)") }
            }
            #expect(String(describing: card).contains("card-1"))
            #expect(String(describing: secrets).contains("pin: <redacted>"))
            #expect(String(describing: GiftCardSecrets(number: "1")).contains("pin: nil"))
            let answer = CTXWire.TokenAnswer(accessToken: "at-s3cret", refreshToken: "rt-s3cret")
            #expect(!String(describing: answer).contains("s3cret"))
        }

        @Test("session and account values hide their secrets in every printed and reflected form")
        func sessionValuesAreRedacted() {
            var values: [Any] = [
                CTXWire.TokenAnswer(accessToken: "at-xyzzy", refreshToken: "rt-xyzzy"),
                CTXWire.RefreshRequest(refreshToken: "rt-xyzzy"),
                CTXWire.LoginRequest(email: "xyzzy@example.com"),
                CTXWire.VerifyEmailRequest(email: "xyzzy@example.com", code: "code-xyzzy"),
            ]
            #if PiggyCards
                values += [
                    PiggyCardsAccount(userID: "user-1", email: "xyzzy@example.com", password: "pw-xyzzy"),
                    PiggyCardsWire.LoginRequest(userId: "user-1", password: "pw-xyzzy"),
                    PiggyCardsWire.LoginAnswer(accessToken: "at-xyzzy"),
                    PiggyCardsWire.VerifyOTPRequest(email: "xyzzy@example.com", otp: "otp-xyzzy"),
                    PiggyCardsWire.VerifyOTPAnswer(generatedPassword: "pw-xyzzy"),
                    PiggyCardsWire.SignupRequest(firstName: "Ana", lastName: "Silva", email: "xyzzy@example.com", country: "US"),
                ]
            #endif
            for value in values {
                for text in printedForms(value) { #expect(!text.contains("xyzzy"), "\(type(of: value)): \(text)") }
            }
        }
    }
}
