import Crypto
@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageYoull
import Foundation
import EngageTestTraits
import Testing

/// The decoded answers the query cache keeps in memory in front of its table.
@Suite("Youll cache: decoded answers in memory", .bounded)
struct YoullDecodedAnswersTests {
    func cache(clock: FakeClock = FakeClock(), lifetime: Double = 60) throws -> YoullCache {
        let database = try EngageDatabase(location: .inMemory, clock: clock)
        let storage = try database.namespace("youll", migrations: [YoullCache.migration, YoullCache.lifetimeMigration])
        return YoullCache(
            storage: storage, sealer: try Sealer(key: SymmetricKey(size: .bits256)), clock: clock, capacityBytes: 1 << 20,
            lifetime: lifetime)
    }

    @Test("a written answer is served decoded, as its own type only; emptying the cache forgets it")
    func servedUntilEmptied() async throws {
        let clock = FakeClock()
        let cache = try cache(clock: clock)
        let now = clock.now.timeIntervalSince1970
        #expect(try await cache.write(key: "k", operation: "op", body: Data("{}".utf8), value: "answer", generation: cache.generation))
        #expect(cache.decodedValue(key: "k", as: String.self) == "answer")
        #expect(cache.decodedValue(key: "k", as: Int.self) == nil, "another type is a miss")
        #expect(cache.decodedValue(key: "k", as: String.self) == nil, "and the entry is dropped")
        cache.keepDecoded("again", key: "k", storedAt: now, size: 2, generation: cache.generation)
        #expect(cache.decodedValue(key: "k", as: String.self) == "again")
        try await cache.removeAll()
        #expect(cache.decodedValue(key: "k", as: String.self) == nil)
    }

    @Test("an answer read or written before an invalidation is not kept after it, nor one read before emptying ended")
    func staleGenerationNotKept() async throws {
        let clock = FakeClock()
        let cache = try cache(clock: clock)
        let now = clock.now.timeIntervalSince1970
        let before = cache.generation
        cache.keepDecoded("current", key: "k", storedAt: now, size: 2, generation: before)
        #expect(cache.decodedValue(key: "k", as: String.self) == "current", "kept in its own generation")
        cache.invalidateInFlight()
        #expect(try await !cache.write(key: "k2", operation: "op", body: Data("{}".utf8), value: "stale", generation: before))
        cache.keepDecoded("stale", key: "k2", storedAt: now, size: 2, generation: before)
        #expect(cache.decodedValue(key: "k2", as: String.self) == nil)
        // A read that saw the generation of the emptying's start (the row still there) ends after it.
        #expect(try await cache.write(key: "k3", operation: "op", body: Data("{}".utf8), generation: cache.generation))
        let during = cache.generation + 1  // what a read beginning after the first invalidation sees
        try await cache.removeAll()
        cache.keepDecoded("read before the delete", key: "k3", storedAt: now, size: 2, generation: during)
        #expect(cache.decodedValue(key: "k3", as: String.self) == nil)
    }

    @Test("a decoded answer expires with its entry's lifetime on the injected clock")
    func expires() async throws {
        let clock = FakeClock()
        let cache = try cache(clock: clock, lifetime: 60)
        #expect(try await cache.write(key: "k", operation: "op", body: Data("{}".utf8), value: "answer", generation: cache.generation))
        clock.advance(by: .seconds(60))
        #expect(cache.decodedValue(key: "k", as: String.self) == "answer")
        clock.advance(by: .seconds(1))
        #expect(cache.decodedValue(key: "k", as: String.self) == nil)
    }

    @Test("within the budget the least recently used answer goes first; one larger than the budget is not kept")
    func leastRecentlyUsedFirst() {
        var answers = DecodedAnswers(budget: 100)
        answers.insert(.init(value: "a", storedAt: 0, size: 40), for: "a")
        answers.insert(.init(value: "b", storedAt: 0, size: 40), for: "b")
        _ = answers.use("a")
        answers.insert(.init(value: "c", storedAt: 0, size: 40), for: "c")
        #expect(Set(answers.entries.keys) == ["a", "c"])
        #expect(answers.bytes == 80)
        answers.insert(.init(value: "c2", storedAt: 0, size: 50), for: "c")
        #expect(answers.bytes == 90 && answers.entries["c"]?.value as? String == "c2", "a replacement counts once")
        answers.insert(.init(value: "huge", storedAt: 0, size: 101), for: "huge")
        #expect(answers.entries["huge"] == nil && answers.bytes == 90)
        answers.removeAll()
        #expect(answers.entries.isEmpty && answers.bytes == 0)
    }
}
