@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import EngageTestTraits
import Testing

@Suite("SingleFlight", .bounded)
struct SingleFlightTests {
    @Test("concurrent callers share one run, and the next caller after it ends starts another")
    func sharedRun() async throws {
        let flights = SingleFlight<Int>()
        let runs = TestCounter()
        let gate = TestGate()
        let values = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<100 {
                group.addTask {
                    try await flights.run { _ in
                        runs.increment()
                        await gate.wait()
                        return 7
                    }.task.value
                }
            }
            #expect(await waitUntil { flights.joinedCount == 99 }, "every caller joined")
            gate.open()
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(values == Array(repeating: 7, count: 100))
        #expect(runs.count == 1)
        #expect(await waitUntil { flights.current == nil }, "the run cleared its slot")
        _ = try await flights.run { _ in runs.increment() }.task.value
        #expect(runs.count == 2)
    }

    @Test("a caller that stops waiting does not stop the run for the others")
    func leavingCallerKeepsTheRun() async throws {
        let flights = SingleFlight<String>()
        let gate = TestGate()
        let first = flights.run { _ in
            await gate.wait()
            return "done"
        }
        let leaving = Task { try await first.task.valueUnlessCancelled() }
        leaving.cancel()
        await #expect(throws: EngageError.self) { try await leaving.value }
        let joined = try #require(flights.join())
        #expect(joined.id == first.id && joined.joined)
        gate.open()
        #expect(try await joined.task.value == "done")
    }

    @Test("detach lets a newer state start a fresh run while the old one finishes; detach(id) only detaches that run")
    func detach() async throws {
        let flights = SingleFlight<Int>()
        let gate = TestGate()
        let old = flights.run { _ in
            await gate.wait()
            return 1
        }
        #expect(!flights.detach(old.id &+ 1))
        #expect(flights.detach(old.id))
        let fresh = flights.run { _ in 2 }
        #expect(!fresh.joined && fresh.id != old.id)
        #expect(try await fresh.task.value == 2)
        gate.open()
        #expect(try await old.task.value == 1)
        #expect(await waitUntil { flights.current == nil }, "the slot is empty")
    }

    @Test("a failed run hands its error to every caller and frees the slot")
    func failedRun() async throws {
        struct Failure: Error {}
        let flights = SingleFlight<Int>()
        await #expect(throws: Failure.self) { try await flights.run { _ in throw Failure() }.task.value }
        #expect(await waitUntil { flights.current == nil }, "the slot is empty")
        #expect(try await flights.run { _ in 3 }.task.value == 3)
    }

    @Test("keyed: callers of one key share its run, another key runs beside it, and detaching one key leaves the other")
    func keyedRuns() async throws {
        let flights = KeyedSingleFlight<String, String>()
        let gate = TestGate()
        let runs = TestCounter()
        let a = flights.run("a") { _ in
            runs.increment()
            await gate.wait()
            return "A"
        }
        let b = flights.run("b") { _ in
            runs.increment()
            await gate.wait()
            return "B"
        }
        let joinedA = flights.run("a") { _ in "another A" }
        #expect(!a.joined && !b.joined && joinedA.joined && joinedA.id == a.id)
        #expect(a.id != b.id)
        #expect(flights.detach("b", id: b.id))
        #expect(flights.current("a") != nil && flights.current("b") == nil)
        let freshB = flights.run("b") { _ in "fresh B" }
        #expect(!freshB.joined)
        #expect(try await freshB.task.value == "fresh B")
        gate.open()
        #expect(try await joinedA.task.value == "A")
        #expect(try await b.task.value == "B")
        #expect(runs.count == 2)
        #expect(await waitUntil { flights.current("a") == nil }, "the run cleared its key")
    }
}
