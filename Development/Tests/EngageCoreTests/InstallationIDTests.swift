@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import HTTPTypes
import EngageTestTraits
import Testing

/// A provider context named `id` over `database`.
private func context(_ id: ProviderID, database: EngageDatabase) throws -> ProviderContext {
    try makeProviderContext(id, database: database)
}

@Suite("Installation id", .bounded)
struct InstallationIDTests {
    @Test("made once, stored, and the same after a restart over the same database")
    func madeOnceAndKept() throws {
        let database = try EngageDatabase(location: .inMemory, clock: FakeClock())
        let first = try context("alpha", database: database).installationID()
        let id = try first.value()
        #expect(try first.value() == id)
        #expect(UUID(uuidString: id) != nil && id == id.lowercased())
        let relaunched = try context("alpha", database: database).installationID()
        #expect(try relaunched.value() == id)
    }

    @Test("every provider has its own, so two backends cannot join their records through it")
    func onePerProvider() throws {
        let database = try EngageDatabase(location: .inMemory, clock: FakeClock())
        let alpha = try context("alpha", database: database).installationID().value()
        let beta = try context("beta", database: database).installationID().value()
        #expect(alpha != beta)
    }

    @Test("renew replaces and stores a new id; a configured id is never stored nor renewed")
    func renewAndConfigured() throws {
        let database = try EngageDatabase(location: .inMemory, clock: FakeClock())
        let alpha = try context("alpha", database: database)
        let installation = alpha.installationID()
        let old = try installation.value()
        let new = try installation.renew()
        #expect(new != old)
        #expect(try alpha.installationID().value() == new)
        let configured = alpha.installationID(storedUnder: "configured_id", configured: "fixed-id")
        #expect(try configured.value() == "fixed-id")
        #expect(try configured.renew() == "fixed-id")
        #expect(try alpha.storage.value(String.self, forKey: "configured_id") == nil)
    }

    @Test("an id stored under a provider's earlier key is kept, in its own format")
    func earlierKeyKept() throws {
        let database = try EngageDatabase(location: .inMemory, clock: FakeClock())
        let alpha = try context("alpha", database: database)
        try alpha.storage.setValue("E621E1F8-C36C-495A-93FC-0C247A3E6E5F", forKey: "device_id")
        #expect(try alpha.installationID(storedUnder: "device_id").value() == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        let made = try alpha.installationID(storedUnder: "other_id") { "visitor-" + $0.uuidString }.value()
        #expect(made == "visitor-" + (try alpha.anonymousID.derivedID(for: "alpha").uuidString))
    }

    @Test("a new id is the provider's id derived from the app's anonymous id, and a renewal derives the next one")
    func derivedFromTheAnonymousID() throws {
        let database = try EngageDatabase(location: .inMemory, clock: FakeClock())
        let alpha = try context("alpha", database: database)
        let installation = alpha.installationID()
        let first = try installation.value()
        #expect(first == (try alpha.anonymousID.derivedID(for: "alpha").uuidString.lowercased()))
        #expect(first != (try alpha.anonymousID.value()), "the provider never receives the app's own id")
        let renewed = try installation.renew()
        #expect(renewed != first)
        #expect(renewed == (try alpha.anonymousID.derivedID(for: "alpha").uuidString.lowercased()))
    }

    @Test("concurrent first uses make one id")
    func concurrentFirstUse() async throws {
        let database = try EngageDatabase(location: .inMemory, clock: FakeClock())
        let installation = try context("alpha", database: database).installationID()
        let ids = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 { group.addTask { try installation.value() } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(ids.count == 1)
    }

    @Test("a provider that cleared its storage and renews gets an id it never had, though its namespace forgot the old ones")
    func renewAfterClearing() throws {
        let database = try EngageDatabase(location: .inMemory, clock: FakeClock())
        let alpha = try context("alpha", database: database)
        let installation = alpha.installationID()
        let old = try installation.value()
        try alpha.storage.removeAll()
        let new = try installation.renew()
        #expect(new != old)
        try alpha.storage.removeAll()
        #expect(try installation.renew() != new)
        #expect(try alpha.installationID().value() != old, "read back from storage after a relaunch")
    }

    @Test("forget stores nothing, and the next use makes an id the provider never had")
    func forgetThenMakeAnew() throws {
        let database = try EngageDatabase(location: .inMemory, clock: FakeClock())
        let alpha = try context("alpha", database: database)
        let installation = alpha.installationID()
        let old = try installation.value()
        try alpha.storage.removeAll()
        try installation.forget()
        #expect(try alpha.storage.value(String.self, forKey: "installation_id") == nil, "nothing is kept until the next use")
        let new = try installation.value()
        #expect(new != old)
        #expect(try alpha.storage.value(String.self, forKey: "installation_id") == new)
    }

    @Test("forget deletes an id a concurrent first use stored after the namespace was cleared")
    func forgetAfterAConcurrentFirstUse() throws {
        let database = try EngageDatabase(location: .inMemory, clock: FakeClock())
        let alpha = try context("alpha", database: database)
        let old = try alpha.installationID().value()
        try alpha.storage.removeAll()
        // A request between the clearing and forget(), through an instance that had not read the id:
        // it derives the same id again and stores it.
        #expect(try alpha.installationID().value() == old)
        try alpha.installationID().forget()
        #expect(try alpha.storage.value(String.self, forKey: "installation_id") == nil)
        #expect(try alpha.installationID().value() != old)
    }
}
