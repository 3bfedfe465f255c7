@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageExploreCTX
@_spi(EngageProvider) @testable import EngageExploreGiftCards
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import GRDB
import EngageTestTraits
import Testing

extension GiftCardSuites {
    @Suite("Gift-card vault", .bounded)
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
            let first = try vault.store(
                provider: .ctx, id: "card-1", merchantID: "m-1", fiatAmount: 25, fiatCurrency: "USD",
                secrets: GiftCardSecrets(number: "6006 1"))
            let sealed = try #require(try Self.row(test))
            clock.advance(by: .seconds(3600))
            try vault.store(provider: .ctx, id: "card-0", secrets: GiftCardSecrets(number: "6006 0"))

            // Read again, unchanged: the same card, the same sealed bytes (a new seal would use a new nonce).
            let again = try vault.store(
                provider: .ctx, id: "card-1", merchantID: "m-1", fiatAmount: 25, fiatCurrency: "USD",
                secrets: GiftCardSecrets(number: "6006 1"))
            #expect(again == first)
            #expect(try Self.row(test) == sealed)
            #expect(try vault.allCards().map(\.id) == ["card-1", "card-0"])

            // Changed secrets (a PIN delivered later) replace the old ones and keep the card's place.
            let updated = try vault.store(
                provider: .ctx, id: "card-1", merchantID: "m-1", fiatAmount: 25, fiatCurrency: "USD",
                secrets: GiftCardSecrets(number: "6006 1", pin: "1234")
            )
            #expect(updated.storedAt == first.storedAt)
            #expect(try Self.row(test) != sealed)
            #expect(try vault.card(provider: .ctx, id: "card-1")?.secrets.pin == "1234")
            #expect(try vault.allCards().map(\.id) == ["card-1", "card-0"])
        }

        @Test(
            "after a restore without the key, a card that no longer opens is listed lost once, never fails the others, and storing it recovers it"
        )
        func cardSealedWithALostKey() async throws {
            let clock = FakeClock()
            let test = try GiftCardTestContext(clock: clock)
            let before = GiftCardVault(storage: test.context.storage, clock: clock)
            try before.store(provider: .ctx, id: "card-1", secrets: GiftCardSecrets(number: "6006 1"))
            try before.store(provider: .piggyCards, id: "order-7-2", secrets: GiftCardSecrets(claimCode: "CLAIM"))

            // The same database, a new key (what the keychain holds after a restore to another device).
            let restored = try GiftCardTestContext(clock: clock, database: test.context.database)
            let announced = Locked<[String]>([])
            let subscription = restored.context.events.subscribe(named: "gift_card_unreadable", on: DispatchQueue(label: "vault-events")) {
                event in
                announced.withLock { $0.append((event as? NamedEvent)?.attributes["card"] ?? "?") }
            }
            defer { subscription.cancel() }
            let vault = GiftCardVault(storage: restored.context.storage, clock: clock, events: restored.context.events)
            clock.advance(by: .seconds(60))
            try vault.store(provider: .ctx, id: "card-2", secrets: GiftCardSecrets(number: "6006 2"))

            #expect(try vault.allCards().map(\.id) == ["card-2"])
            #expect(try vault.card(provider: .ctx, id: "card-1") == nil)
            let lost = try vault.lostCards()
            #expect(lost.map(\.id).sorted() == ["card-1", "order-7-2"])
            #expect(lost.allSatisfy { $0.lostAt == clock.now })
            #expect(Set(lost.map(\.provider)) == [.ctx, .piggyCards])
            #expect(try vault.allCards().map(\.id) == ["card-2"], "read again: still no error")

            // The source returns the card: stored with the new key, no longer lost.
            try vault.store(provider: .ctx, id: "card-1", secrets: GiftCardSecrets(number: "6006 1"))
            #expect(try vault.card(provider: .ctx, id: "card-1")?.secrets.number == "6006 1")
            #expect(try vault.lostCards().map(\.id) == ["order-7-2"])
            try vault.removeAll()
            #expect(try vault.lostCards().isEmpty)
            try await eventuallyTrue("two announcements") { announced.withLock { $0.count } == 2 }
            #expect(announced.withLock { $0.sorted() } == ["card-1", "order-7-2"])
        }

        @Test("a card that no longer opens is never moved aside without its lost record: both are written, or neither")
        func lostRecordAndMoveAsideTogether() throws {
            let clock = FakeClock()
            let test = try GiftCardTestContext(clock: clock)
            try GiftCardVault(storage: test.context.storage, clock: clock).store(
                provider: .ctx, id: "card-1", secrets: GiftCardSecrets(number: "6006 1"))
            let restored = try GiftCardTestContext(clock: clock, database: test.context.database)
            let vault = GiftCardVault(storage: restored.context.storage, clock: clock)
            // The lost record cannot be written (a full disk, say, at that moment).
            try test.context.database.writer.write { db in
                try db.execute(
                    sql: """
                        CREATE TEMP TRIGGER refuse_lost_records BEFORE INSERT ON engage_kv
                        WHEN NEW.key LIKE 'giftcard-lost.%' BEGIN SELECT RAISE(ABORT, 'disk full'); END
                        """)
            }
            #expect(throws: EngageError.self) { try vault.card(provider: .ctx, id: "card-1") }
            // The card is still where it was: a later read (with room on the disk) records it lost.
            #expect(try Self.row(test) != nil)
            try test.context.database.writer.write { db in try db.execute(sql: "DROP TRIGGER refuse_lost_records") }
            #expect(try vault.card(provider: .ctx, id: "card-1") == nil)
            #expect(try vault.lostCards().map(\.id) == ["card-1"])
            #expect(try Self.row(test) == nil)
        }
    }
}
