import EngageCore
import EngageExplore
import EngageTesting
import Foundation
import GRDB
import Testing

extension GiftCardSuites {
@Suite("Gift-card vault")
struct GiftCardVaultTests {
    private static func row(_ test: GiftCardTestContext) throws -> Data? {
        try test.context.database.writer.read { db in
            try Data.fetchOne(db, sql: "SELECT value FROM engage_kv WHERE namespace = 'explore' AND key = 'giftcard.CTX.card-1'")
        }
    }

    @Test("storing a card again keeps its first storedAt and writes nothing when nothing changed; a change is sealed")
    func storingAgain() throws {
        let clock = FakeClock()
        let test = try GiftCardTestContext(clock: clock)
        let vault = GiftCardVault(storage: test.context.storage, clock: clock)
        let first = try vault.store(provider: .ctx, id: "card-1", merchantID: "m-1", fiatAmount: 25, fiatCurrency: "USD", secrets: GiftCardSecrets(number: "6006 1"))
        let sealed = try #require(try Self.row(test))
        clock.advance(by: .seconds(3600))
        try vault.store(provider: .ctx, id: "card-0", secrets: GiftCardSecrets(number: "6006 0"))

        // Read again, unchanged: the same card, the same sealed bytes (a new seal would use a new nonce).
        let again = try vault.store(provider: .ctx, id: "card-1", merchantID: "m-1", fiatAmount: 25, fiatCurrency: "USD", secrets: GiftCardSecrets(number: "6006 1"))
        #expect(again == first)
        #expect(try Self.row(test) == sealed)
        #expect(try vault.allCards().map(\.id) == ["card-1", "card-0"])

        // Changed secrets (a PIN delivered later) replace the old ones and keep the card's place.
        let updated = try vault.store(
            provider: .ctx, id: "card-1", merchantID: "m-1", fiatAmount: 25, fiatCurrency: "USD", secrets: GiftCardSecrets(number: "6006 1", pin: "1234")
        )
        #expect(updated.storedAt == first.storedAt)
        #expect(try Self.row(test) != sealed)
        #expect(try vault.card(provider: .ctx, id: "card-1")?.secrets.pin == "1234")
        #expect(try vault.allCards().map(\.id) == ["card-1", "card-0"])
    }
}
}
