@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageYoull
import Foundation
import GRDB
import EngageTestTraits
import Testing
import YoullEmulator

/// The four cache policies, counted in the emulator's journal; keys; bounds; logout.
@Suite(.bounded) struct YoullCacheTests {
    func graphQLCount(_ harness: YoullHarness) async -> Int { await harness.requests(path: "/v1/graphql").count }

    @Test func eachPolicyAsksTheBackendOnlyWhenItShould() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        let youll = harness.youll
        let notCached = await #expect(throws: EngageError.self) {
            try await youll.fetch(.categories(), cachePolicy: .cacheOnly)
        }
        #expect(notCached?.code == .youllNotCached)
        #expect(await graphQLCount(harness) == 0)
        _ = try await youll.fetch(.categories(), cachePolicy: .cacheFirst)
        _ = try await youll.fetch(.categories(), cachePolicy: .cacheFirst)
        #expect(await graphQLCount(harness) == 1)
        #expect(try await youll.fetch(.categories(), cachePolicy: .cacheOnly).count == 4)
        #expect(await graphQLCount(harness) == 1)
        _ = try await youll.fetch(.categories())  // the default: fetch ignoring the cache
        _ = try await youll.fetch(.categories(), cachePolicy: .networkOnly)
        #expect(await graphQLCount(harness) == 3)
        _ = try await youll.fetch(.categories(), cachePolicy: .cacheThenNetwork)
        #expect(await graphQLCount(harness) == 4)
        // Variables are part of the key.
        _ = try await youll.fetch(.subcategories(categoryID: "cat-mind"), cachePolicy: .cacheFirst)
        _ = try await youll.fetch(.subcategories(categoryID: "cat-move"), cachePolicy: .cacheFirst)
        #expect(await graphQLCount(harness) == 6)
    }

    @Test func cacheAndFetchDeliversTwice() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        let youll = harness.youll
        var first: [Bool] = []
        for try await response in youll.responses(.exploreTags()) { first.append(response.isFromCache) }
        #expect(first == [false])
        var second: [Bool] = []
        for try await response in youll.responses(.exploreTags()) { second.append(response.isFromCache) }
        #expect(second == [true, false])
        #expect(await graphQLCount(harness) == 2)

        let deliveries = TestCounter()
        let done = TestGate()
        youll.fetch(.exploreTags(), cachePolicy: .cacheThenNetwork) { result in
            if case .success(let tags) = result, tags.count == 4, deliveries.increment() == 2 { done.open() }
        }
        await done.wait()
        #expect(deliveries.count == 2)
        #expect(await graphQLCount(harness) == 3)
    }

    @Test func usersDoNotSeeEachOthersCache() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        harness.youll.setSession(harness.userSession("u-a"))
        _ = try await harness.youll.perform(.like(contentID: "c-001"))
        #expect(try await harness.youll.fetch(.favourites(), cachePolicy: .cacheFirst).map(\.id) == ["c-001"])
        harness.youll.setSession(harness.userSession("u-b"))
        let error = await #expect(throws: EngageError.self) {
            try await harness.youll.fetch(.favourites(), cachePolicy: .cacheOnly)
        }
        #expect(error?.code == .youllNotCached)
        #expect(try await harness.youll.fetch(.favourites(), cachePolicy: .cacheFirst).isEmpty)
    }

    @Test func languagesDoNotShareTheCache() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("youll-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let secrets = InMemorySecretStore()
        let english = try await YoullHarness.make(storage: .directory(directory.path), secretStore: secrets)
        _ = try await english.youll.fetch(.categories())
        #expect(try await english.youll.fetch(.categories(), cachePolicy: .cacheOnly).first?.title == "Mindfulness")
        await english.stop()
        let greek = try await YoullHarness.make(extraLang: "el", storage: .directory(directory.path), secretStore: secrets)
        defer { Task { await greek.stop() } }
        let error = await #expect(throws: EngageError.self) {
            try await greek.youll.fetch(.categories(), cachePolicy: .cacheOnly)
        }
        #expect(error?.code == .youllNotCached)
        #expect(try await greek.youll.fetch(.categories(), cachePolicy: .cacheFirst).first?.title == "Ενσυνειδητότητα")
    }

    @Test func theCacheStaysWithinItsCapacity() async throws {
        let harness = try await YoullHarness.make { $0.cacheCapacityBytes = 65_536 }
        defer { Task { await harness.stop() } }
        var pages: [(String, Int)] = []
        for category in ["cat-mind", "cat-move"] {
            for limit in 5...16 { pages.append((category, limit)) }
        }
        for (category, limit) in pages {
            _ = try await harness.youll.fetch(.contents(categoryID: category, page: PageRequest(limit: limit)))
            harness.clock.advance(by: .seconds(1))  // a distinct use time for each entry
        }
        let usage = try await harness.youll.cacheUsage()
        #expect(usage.bytes <= 65_536 && usage.entries < pages.count && usage.entries >= 4)
        // The least recently used went first; the newest stayed.
        await #expect(throws: EngageError.self) {
            try await harness.youll.fetch(
                .contents(categoryID: "cat-mind", page: PageRequest(limit: 5)), cachePolicy: .cacheOnly)
        }
        #expect(
            try await harness.youll.fetch(
                .contents(categoryID: "cat-move", page: PageRequest(limit: 16)), cachePolicy: .cacheOnly
            ).count == 16)
        try await harness.youll.clearCache()
        #expect(try await harness.youll.cacheUsage().entries == 0)
    }

    @Test func theProfileStartsFromTheCacheAndLogOutLeavesNoYoullRow() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("youll-logout-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let harness = try await YoullHarness.make(storage: .directory(directory.path))
        defer { Task { await harness.stop() } }
        harness.youll.setSession(harness.userSession("u-1"))
        let profile = try await harness.youll.fetch(.profile())
        _ = try await harness.youll.fetch(.homeFeed())
        // A fast start: the last profile, with no request.
        let before = harness.host.journal.entries(for: "youll").count
        #expect(try await harness.youll.fetch(.profile(), cachePolicy: .cacheOnly) == profile)
        #expect(harness.host.journal.entries(for: "youll").count == before)

        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".sqlite") }
        let database = try DatabaseQueue(path: directory.appendingPathComponent(try #require(files.first)).path)
        func youllRows() async throws -> Int {
            try await database.read { db in
                (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM youll_cache") ?? 0)
                    + (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM engage_kv WHERE namespace = 'youll'") ?? 0)
            }
        }
        #expect(try await youllRows() >= 3)  // two answers and the device id
        // The cached bodies are sealed: the profile's email and name are not in the file.
        let bodies = try await database.read { db in try Data.fetchAll(db, sql: "SELECT body FROM youll_cache") }
        #expect(!bodies.contains { $0.range(of: Data("Member u-1".utf8)) != nil })
        func lastDeviceID() -> String? {
            harness.host.journal.entries(for: "youll").last { $0.header("device-id") != nil }?.header("device-id")
        }
        let deviceBefore = try #require(lastDeviceID())
        try await harness.youll.logOut()
        #expect(try await youllRows() == 0)
        await #expect(throws: EngageError.self) { try await harness.youll.fetch(.profile(), cachePolicy: .cacheOnly) }
        _ = try await harness.youll.fetch(.homeFeed())
        let deviceAfter = try #require(lastDeviceID())
        #expect(deviceAfter != deviceBefore, "after the log-out Youll knows this device by a new id")
    }

    @Test("A cache row with a mistyped cell is dropped and fetched again, never a crash")
    func mistypedCacheRowsAreDropped() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("youll-mistyped-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let secrets = InMemorySecretStore()
        let first = try await YoullHarness.make(storage: .directory(directory.path), secretStore: secrets)
        first.youll.setSession(first.userSession("u-1"))
        let profile = try await first.youll.fetch(.profile())
        _ = try await first.youll.fetch(.homeFeed())
        await first.stop()
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".sqlite") }
        let database = try DatabaseQueue(path: directory.appendingPathComponent(try #require(files.first)).path)
        // Damage every row: a time that is not a number, a size with a fraction. The next launch
        // (nothing decoded in memory yet) reads them.
        try await database.write { db in
            try db.execute(sql: "UPDATE youll_cache SET stored_at = 'yesterday', size = 1.5")
        }
        try database.close()
        let harness = try await YoullHarness.make(storage: .directory(directory.path), secretStore: secrets)
        defer { Task { await harness.stop() } }
        harness.youll.setSession(harness.userSession("u-1"))
        await #expect(throws: EngageError.self) { try await harness.youll.fetch(.profile(), cachePolicy: .cacheOnly) }
        #expect(try await harness.youll.fetch(.profile()) == profile)
        #expect(try await harness.youll.fetch(.profile(), cachePolicy: .cacheOnly) == profile)
    }

    @Test func keysSeparateOperationsVariablesLanguagesAndUsers() {
        let base = YoullCacheKeyProbe.key(operation: "content", variables: #"{"id":"1"}"#, language: "en", userID: "u")
        #expect(base != YoullCacheKeyProbe.key(operation: "content", variables: #"{"id":"2"}"#, language: "en", userID: "u"))
        #expect(base != YoullCacheKeyProbe.key(operation: "content", variables: #"{"id":"1"}"#, language: "el", userID: "u"))
        #expect(base != YoullCacheKeyProbe.key(operation: "content", variables: #"{"id":"1"}"#, language: "en", userID: nil))
        #expect(base != YoullCacheKeyProbe.key(operation: "contents", variables: #"{"id":"1"}"#, language: "en", userID: "u"))
        // Lengths are part of the digest: moving a character between parts changes the key.
        #expect(
            YoullCacheKeyProbe.key(operation: "ab", variables: "c", language: "", userID: nil)
                != YoullCacheKeyProbe.key(operation: "a", variables: "bc", language: "", userID: nil)
        )
    }
}

@Suite(.bounded) struct YoullCacheInvalidationTests {
    @Test func aChangeEmptiesTheCacheSoNoStaleAnswerIsServed() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        harness.youll.setSession(harness.userSession("u-1"))
        #expect(try await harness.youll.fetch(.favourites(), cachePolicy: .cacheFirst).isEmpty)
        try await harness.youll.perform(.like(contentID: "c-007"))
        #expect(try await harness.youll.fetch(.favourites(), cachePolicy: .cacheFirst).map(\.id) == ["c-007"])
        // A change that fails leaves the cache as it was.
        await #expect(throws: EngageError.self) { try await harness.youll.perform(.dismissHomeSlice(id: "no-such-slice")) }
        #expect(try await harness.youll.cacheUsage().entries == 1)
    }
}

@Suite(.bounded) struct YoullCacheRecencyTests {
    @Test func aHitKeepsAnEntryFromEviction() async throws {
        let harness = try await YoullHarness.make { $0.cacheCapacityBytes = 65_536 }
        defer { Task { await harness.stop() } }
        let youll = harness.youll
        let first = YoullQuery<[YoullContent]>.contents(categoryID: "cat-mind", page: PageRequest(limit: 5))
        let second = YoullQuery<[YoullContent]>.contents(categoryID: "cat-mind", page: PageRequest(limit: 6))
        _ = try await youll.fetch(first)
        harness.clock.advance(by: .seconds(1))
        _ = try await youll.fetch(second)
        harness.clock.advance(by: .seconds(1))
        // A hit on the first makes it the most recently used of the two.
        _ = try await youll.fetch(first, cachePolicy: .cacheFirst)
        // Add answers smaller than the second until the first eviction, which then takes only the least
        // recently used entry.
        var entries = try await youll.cacheUsage().entries
        for offset in 0..<45 {
            harness.clock.advance(by: .seconds(1))
            _ = try await youll.fetch(.search(text: "", page: PageRequest(offset: offset, limit: 4)))
            let now = try await youll.cacheUsage().entries
            if now <= entries { break }
            entries = now
        }
        #expect(try await youll.cacheUsage().bytes <= 65_536)
        await #expect(throws: EngageError.self) { try await youll.fetch(second, cachePolicy: .cacheOnly) }
        #expect(try await youll.fetch(first, cachePolicy: .cacheOnly).count == 5)
    }

    /// An answer requested before a log-out arrives after it: it is not written into the emptied cache.
    @Test func anAnswerInFlightAcrossALogOutIsNotCached() async throws {
        let gate = TestGate()
        let arrived = TestCounter()
        let harness = try await YoullHarness.make(sleep: { _ in
            arrived.increment()
            await gate.wait()
        })
        defer { Task { await harness.stop() } }
        harness.host.faults.inject(FaultRule(.delay(.seconds(1)), emulatorID: "youll", path: "/v1/graphql", trigger: .times(1)))
        let inFlight = Task { try await harness.youll.fetch(.categories()) }
        #expect(await waitUntil { arrived.count == 1 })
        try await harness.youll.logOut()
        gate.open()
        #expect(try await inFlight.value.count == 4)
        let error = await #expect(throws: EngageError.self) {
            try await harness.youll.fetch(.categories(), cachePolicy: .cacheOnly)
        }
        #expect(error?.code == .youllNotCached)
    }

    /// The user is read once per call: an account switch while a request is prepared never stores the
    /// new user's answer under the previous user's key.
    @Test func aUserSwitchDuringACallNeverCachesAnotherUsersAnswer() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        let userA = harness.userSession("u-a")
        let userB = harness.userSession("u-b")
        harness.youll.setSession(userB)
        _ = try await harness.youll.perform(.like(contentID: "c-001"))

        harness.youll.setSession(SwitchingSession(from: userA, to: userB))
        _ = try await harness.youll.fetch(.favourites())
        harness.youll.setSession(userA)
        let cached = try? await harness.youll.fetch(.favourites(), cachePolicy: .cacheOnly)
        #expect(cached?.map(\.id) != ["c-001"], "user a was served user b's favourites from the cache")
    }

    /// A signed-in session that names no user id is keyed by its token's subject, never as a guest; a
    /// token without a subject is not cached at all.
    @Test func signedInUsersWithoutAnIDDoNotShareTheGuestsEntries() async throws {
        let harness = try await YoullHarness.make()
        defer { Task { await harness.stop() } }
        _ = try await harness.youll.fetch(.categories())  // as a guest
        #expect(try await harness.youll.fetch(.categories(), cachePolicy: .cacheOnly).count == 4)

        harness.youll.setSession(TestSession(token: harness.emulator.issueToken(userID: "u-anon"), userID: nil))
        let error = await #expect(throws: EngageError.self) {
            try await harness.youll.fetch(.categories(), cachePolicy: .cacheOnly)
        }
        #expect(error?.code == .youllNotCached)
        #expect(await harness.youll.cacheOwner(of: YoullUserInfo()) == .user("u-anon"))
        harness.youll.setSession(TestSession(token: "opaque-token", userID: nil))
        #expect(await harness.youll.cacheOwner(of: YoullUserInfo()) == nil)
    }

    /// An entry is served for its lifetime, then it is a miss.
    @Test func entriesExpireAfterTheirLifetime() async throws {
        let harness = try await YoullHarness.make { $0.cacheLifetimeSeconds = 3600 }
        defer { Task { await harness.stop() } }
        _ = try await harness.youll.fetch(.categories())
        harness.clock.advance(by: .seconds(3599))
        #expect(try await harness.youll.fetch(.categories(), cachePolicy: .cacheOnly).count == 4)
        harness.clock.advance(by: .seconds(2))
        let error = await #expect(throws: EngageError.self) {
            try await harness.youll.fetch(.categories(), cachePolicy: .cacheOnly)
        }
        #expect(error?.code == .youllNotCached)
        #expect(try await harness.youll.cacheUsage().entries == 0)
    }
}
