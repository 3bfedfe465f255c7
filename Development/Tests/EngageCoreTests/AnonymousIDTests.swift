@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import EngageTestTraits
import Testing

@Suite("Anonymous id", .bounded)
struct AnonymousIDTests {
    static let appID = "6f9619ff-8b86-4011-b42d-00c04fc964ff"

    func storage() throws -> StorageNamespace {
        try EngageDatabase(location: .inMemory, clock: FakeClock()).coreStorage()
    }

    @Test("a provider's id is HMAC-SHA256 of '<provider>:<generation>' keyed with the app's id, as a version 4 UUID")
    func derivationVector() throws {
        // Computed outside Swift: Python's hmac and uuid modules, bytes 6 and 8 given the version 4 and
        // RFC 4122 variant bits.
        let anonymous = AnonymousID(storage: nil) { Self.appID }
        #expect(try anonymous.derivedID(for: "crobox") == UUID(uuidString: "456a9701-3535-4537-b811-26ed1641f934"))
        #expect(try anonymous.derivedID(for: "warply") == UUID(uuidString: "68fb8d77-4093-4152-bb17-d8e1162abd3c"))
        #expect(try anonymous.renewDerivedID(for: "crobox") == UUID(uuidString: "7a069b65-daf4-467f-9154-575879f8091b"))
        #expect(try anonymous.derivedID(for: "crobox") == UUID(uuidString: "7a069b65-daf4-467f-9154-575879f8091b"))
        #expect(try anonymous.derivedID(for: "warply") == UUID(uuidString: "68fb8d77-4093-4152-bb17-d8e1162abd3c"), "others stay")
    }

    @Test("made once as a lowercase UUID, stored, and read back with each provider's generation by a new instance")
    func storedAndReadBack() throws {
        let storage = try storage()
        let first = AnonymousID(storage: storage)
        let id = try first.value()
        #expect(UUID(uuidString: id) != nil && id == id.lowercased())
        #expect(try first.value() == id)
        let renewedCrobox = try first.renewDerivedID(for: "crobox")
        let relaunched = AnonymousID(storage: storage)
        #expect(try relaunched.value() == id)
        #expect(try relaunched.derivedID(for: "crobox") == renewedCrobox)
    }

    @Test("renew makes a new app id, stored, and every provider's id changes with it")
    func renewChangesEveryDerivedID() throws {
        let storage = try storage()
        let anonymous = AnonymousID(storage: storage)
        let old = try anonymous.value()
        let providers: [ProviderID] = ["crobox", "warply", "youll"]
        let before = try providers.map { try anonymous.derivedID(for: $0) }
        _ = try anonymous.renewDerivedID(for: "crobox")
        let new = try anonymous.renew()
        #expect(new != old)
        #expect(try AnonymousID(storage: storage).value() == new)
        let after = try providers.map { try anonymous.derivedID(for: $0) }
        #expect(Set(before).isDisjoint(with: after))
        #expect(Set(after).count == 3, "no two providers share an id")
        #expect(!after.map { $0.uuidString.lowercased() }.contains(new))
    }

    @Test("a stored value that does not decode is replaced by a new id, not an error that stops every provider")
    func damagedValueReplaced() throws {
        let storage = try storage()
        try storage.setValue(["not": "a state"], forKey: "anonymous_id")
        let anonymous = AnonymousID(storage: storage)
        let id = try anonymous.value()
        #expect(UUID(uuidString: id) != nil)
        #expect(try AnonymousID(storage: storage).value() == id, "the replacement is stored")
    }

    @Test("concurrent first uses make one id")
    func concurrentFirstUse() async throws {
        let anonymous = AnonymousID(storage: try storage())
        let ids = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 { group.addTask { try anonymous.value() } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(ids.count == 1)
    }
}
