@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import EngageTestTraits
import Foundation
import HTTPTypes
import Testing

/// The test kit's waits end on events or on cancellation, never on a guess of how long something
/// takes: a loaded machine can take seconds to answer, and a test's deadline (the `.bounded` trait)
/// must be able to end any of them.
@Suite("Test kit: waits that a loaded machine cannot break, and that cancellation ends", .bounded)
struct TestKitWaitTests {
    private static func request(_ path: String) -> HTTPRequestMessage {
        HTTPRequestMessage(head: HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1", path: path))
    }

    /// `holdAnswer` used to give an operation 5 s of real time to have its answer held, then await the
    /// run and try again; an answer that came later was held with nobody left to release it, and the
    /// test hung for good (seen on two loaded cores).
    @Test(
        "HoldingTransport: an answer slower than 5 s is still held, and the run is handed back",
        .bounded(deadline: .seconds(90)))
    func slowAnswerIsHeld() async throws {
        let base = InMemoryTransport()
        base.route(.get, "/slow") { _ in
            // Slower than any readiness guess: the answer of a backend on a starved machine.
            try await Task.sleep(for: .seconds(6))
            return HTTPResponseMessage(head: HTTPResponse(status: .ok), body: Data("{}".utf8))
        }
        let transport = HoldingTransport(wrapping: base, pathSuffix: "/slow")
        let finished = TestGate()
        let run = await transport.holdAnswer {
            _ = try? await transport.send(Self.request("/slow"))
            finished.open()
        }
        // The answer is held: the run waits for the release, and the request went out once.
        #expect(base.requests(to: "/slow").count == 1)
        transport.release.open()
        await run.value
        await finished.wait()
        #expect(base.requests(to: "/slow").count == 1)
    }

    @Test("TestGate: a cancelled waiter returns; an open gate lets everyone through")
    func gateEndsOnCancellation() async {
        let gate = TestGate()
        let waiter = Task {
            await gate.wait()
            return Task.isCancelled
        }
        waiter.cancel()
        #expect(await waiter.value)
        gate.open()
        await gate.wait()
    }

    @Test("FakeClock.waitForSleepers: a cancelled waiter returns")
    func sleeperWaitEndsOnCancellation() async {
        let clock = FakeClock()
        let waiter = Task {
            await clock.waitForSleepers(3)
            return Task.isCancelled
        }
        waiter.cancel()
        #expect(await waiter.value)
        #expect(clock.sleeperCount == 0)
    }

    @Test("waitUntil: true once the condition holds; false at once when cancelled, with no clock involved")
    func waitUntilEndsOnCancellation() async {
        let flag = Locked(false)
        let holds = Task { await waitUntil { flag.value } }
        flag.withLock { $0 = true }
        #expect(await holds.value)
        let never = Task { await waitUntil { false } }
        never.cancel()
        #expect(await never.value == false)
    }
}
