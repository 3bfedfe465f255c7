import Crypto
@_spi(EngageProvider) @testable import EngageCore
import Foundation
import GRDB
import EngageTestTraits
import Testing

@Suite("Storage: key-value", .bounded)
struct StorageKeyValueTests {
    struct Profile: Codable, Equatable {
        var name: String
        var points: Int
        var since: Date
    }

    let database: EngageDatabase
    let sealer: Sealer

    init() throws {
        database = try EngageDatabase(location: .inMemory)
        sealer = try Sealer(key: SymmetricKey(size: .bits256))
    }

    @Test func plainCRUD() throws {
        let storage = try database.namespace("shop")
        #expect(try storage.data(forKey: "greeting") == nil)
        try storage.setData(Data("hello".utf8), forKey: "greeting")
        #expect(try storage.data(forKey: "greeting") == Data("hello".utf8))
        try storage.setData(Data("bye".utf8), forKey: "greeting")
        #expect(try storage.data(forKey: "greeting") == Data("bye".utf8))
        try storage.setData(Data(), forKey: "empty")
        #expect(try storage.data(forKey: "empty") == Data())
        #expect(try storage.keys() == ["empty", "greeting"])
        try storage.removeValue(forKey: "greeting")
        try storage.removeValue(forKey: "missing")
        #expect(try storage.data(forKey: "greeting") == nil)
        #expect(try storage.keys() == ["empty"])
    }

    @Test("a damaged row (mistyped cell) is moved aside and reported as .decoding once, never a trap; the others are intact")
    func damagedRowMovedAside() throws {
        let storage = try database.namespace("shop")
        try storage.setData(Data("hello".utf8), forKey: "greeting")
        try storage.setData(Data("kept".utf8), forKey: "other")
        try database.writer.write { db in
            try db.execute(sql: "UPDATE engage_kv SET is_sealed = 'maybe' WHERE namespace = 'shop' AND key = 'greeting'")
        }
        let error = #expect(throws: EngageError.self) { try storage.data(forKey: "greeting") }
        #expect(error?.code == .decoding)
        #expect(error?.message.contains("moved aside") == true)
        #expect(try storage.data(forKey: "greeting") == nil)
        #expect(try storage.data(forKey: "other") == Data("kept".utf8))
        let moved = try database.writer.read { db in try String.fetchAll(db, sql: "SELECT row_json FROM engage_damaged_rows") }
        #expect(moved.count == 1)
        #expect(moved.first?.contains("'maybe'") == true)
        try storage.setData(Data("again".utf8), forKey: "greeting")
        #expect(try storage.data(forKey: "greeting") == Data("again".utf8))
    }

    @Test func codableValuesRoundTripExactly() throws {
        let storage = try database.namespace("shop")
        let profile = Profile(name: "Ada", points: 42, since: Date(timeIntervalSince1970: 1_700_000_000.123_456))
        try storage.setValue(profile, forKey: "profile")
        #expect(try storage.value(Profile.self, forKey: "profile") == profile)
        #expect(try storage.value(Profile.self, forKey: "none") == nil)
        try storage.setData(Data("not json".utf8), forKey: "broken")
        expectEngageError(.decoding) { _ = try storage.value(Profile.self, forKey: "broken") }
    }

    @Test func namespacesAreIsolatedAndRemoveAllIsScoped() throws {
        let shop = try database.namespace("shop")
        let other = try database.namespace("other")
        try shop.setData(Data("s".utf8), forKey: "k")
        try shop.setData(Data("s2".utf8), forKey: "k2")
        try other.setData(Data("o".utf8), forKey: "k")
        try database.coreStorage().setData(Data("c".utf8), forKey: "k")
        #expect(try shop.data(forKey: "k") == Data("s".utf8))
        #expect(try other.data(forKey: "k") == Data("o".utf8))

        try shop.removeAll()
        #expect(try shop.keys() == [])
        #expect(try other.keys() == ["k"])
        #expect(try database.coreStorage().data(forKey: "k") == Data("c".utf8))
    }

    @Test func sealedValuesRoundTripAndAreStoredEncrypted() throws {
        let storage = try database.namespace("shop", sealer: sealer)
        let secret = Data("card-number-4111".utf8)
        try storage.setSealedData(secret, forKey: "card")
        #expect(try storage.sealedData(forKey: "card") == secret)
        #expect(try storage.sealedData(forKey: "absent") == nil)
        let profile = Profile(name: "Bo", points: 1, since: Date(timeIntervalSince1970: 0))
        try storage.setSealedValue(profile, forKey: "profile")
        #expect(try storage.sealedValue(Profile.self, forKey: "profile") == profile)

        let raw = try database.writer.read { db in
            try Data.fetchOne(db, sql: "SELECT value FROM engage_kv WHERE namespace = 'shop' AND key = 'card'")
        }
        let stored = try #require(raw)
        #expect(stored.range(of: secret) == nil)
        #expect(stored.count == secret.count + Sealer.overhead)
    }

    @Test func plainAndSealedReadsDoNotMix() throws {
        let storage = try database.namespace("shop", sealer: sealer)
        try storage.setData(Data("plain".utf8), forKey: "plain")
        try storage.setSealedData(Data("sealed".utf8), forKey: "sealed")
        let sealedAsPlain = expectEngageError(.storage) { _ = try storage.data(forKey: "sealed") }
        #expect(sealedAsPlain?.message.contains("sealed") == true)
        expectEngageError(.storage) { _ = try storage.value(String.self, forKey: "sealed") }
        expectEngageError(.storage) { _ = try storage.sealedData(forKey: "plain") }
        // Overwriting switches the form.
        try storage.setData(Data("now plain".utf8), forKey: "sealed")
        #expect(try storage.data(forKey: "sealed") == Data("now plain".utf8))
    }

    @Test func sealedAccessWithoutSealerIsAClearError() throws {
        let storage = try database.namespace("shop")
        let error = expectEngageError(.invalidConfiguration) { try storage.setSealedData(Data([1]), forKey: "k") }
        #expect(error?.message.contains("no sealer") == true)
        expectEngageError(.invalidConfiguration) { _ = try storage.sealedData(forKey: "k") }
        #expect(try storage.keys() == [])
        try storage.withSealer(sealer).setSealedData(Data([1]), forKey: "k")
        #expect(try storage.withSealer(sealer).sealedData(forKey: "k") == Data([1]))
    }

    @Test func sealedValueCopiedToAnotherKeyOrNamespaceDoesNotOpen() throws {
        let shop = try database.namespace("shop", sealer: sealer)
        let other = try database.namespace("other", sealer: sealer)
        try shop.setSealedData(Data("secret".utf8), forKey: "a")
        try database.writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO engage_kv (namespace, key, value, is_sealed, updated_at)
                    SELECT namespace, 'b', value, is_sealed, updated_at FROM engage_kv WHERE namespace = 'shop' AND key = 'a';
                    INSERT INTO engage_kv (namespace, key, value, is_sealed, updated_at)
                    SELECT 'other', 'a', value, is_sealed, updated_at FROM engage_kv WHERE namespace = 'shop' AND key = 'a';
                    """)
        }
        // A copy reads as absent (moved aside), never as its original.
        #expect(try shop.sealedData(forKey: "b") == nil)
        #expect(try other.sealedData(forKey: "a") == nil)
        #expect(try shop.sealedData(forKey: "a") == Data("secret".utf8))
        #expect(try shop.keys() == ["a"])
    }

    /// A restore brings the database back without the key that sealed it: each value that no longer
    /// opens reads as absent (moved aside once, never an error for the others), plain values are intact,
    /// and new values are stored and read with the new key.
    @Test func valuesSealedWithALostKeyReadAsAbsentAndAreMovedAside() throws {
        let before = try database.namespace("shop", sealer: sealer)
        try before.setSealedData(Data("token".utf8), forKey: "tokens")
        try before.setSealedData(Data("card".utf8), forKey: "card")
        try before.setData(Data("plain".utf8), forKey: "settings")

        let after = before.withSealer(try Sealer(key: SymmetricKey(size: .bits256)))
        #expect(try after.sealedData(forKey: "tokens") == nil)
        #expect(try after.readSealed(forKey: "card").isUnreadable)
        #expect(try after.readSealed(forKey: "card").isAbsent, "reported once, then absent")
        #expect(try after.data(forKey: "settings") == Data("plain".utf8))
        #expect(try after.keys() == ["settings"])
        let aside = try database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM engage_damaged_rows WHERE source_table = 'engage_kv'")
        }
        #expect(aside == 2)
        try after.setSealedData(Data("new token".utf8), forKey: "tokens")
        #expect(try after.sealedData(forKey: "tokens") == Data("new token".utf8))
    }

    @Test("Invalid keys are refused and nothing is written", arguments: ["", String(repeating: "k", count: 257), "a\u{0}b"])
    func invalidKeys(key: String) throws {
        let storage = try database.namespace("shop", sealer: sealer)
        expectEngageError(.invalidInput) { try storage.setData(Data([1]), forKey: key) }
        expectEngageError(.invalidInput) { _ = try storage.data(forKey: key) }
        expectEngageError(.invalidInput) { try storage.setSealedData(Data([1]), forKey: key) }
        expectEngageError(.invalidInput) { try storage.removeValue(forKey: key) }
        #expect(try storage.keys() == [])
    }

    @Test func longestKeyIsAccepted() throws {
        let storage = try database.namespace("shop")
        let key = String(repeating: "é", count: StorageNamespace.maximumKeyLength)
        try storage.setData(Data([9]), forKey: key)
        #expect(try storage.data(forKey: key) == Data([9]))
    }
}

extension StorageNamespace.SealedRead {
    var isUnreadable: Bool {
        if case .unreadable = self { true } else { false }
    }

    var isAbsent: Bool {
        if case .absent = self { true } else { false }
    }
}
