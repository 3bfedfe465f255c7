@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import Testing

/// Every party must `arrive()` before any of them continues: proves that parties run concurrently.
///
/// A serial schedule would never complete it; instead of hanging, the test's
/// `waitForCompletion(watchdog:)` breaks the barrier after the watchdog delay (real time, which only
/// elapses when the code under test is broken), and waiting parties throw.
final class Barrier: Sendable {
    struct Broken: Error {}

    private struct State {
        var arrived = 0
        var broken = false
        var parties: [CheckedContinuation<Void, any Error>] = []
        var observers: [CheckedContinuation<Bool, Never>] = []
    }

    let count: Int
    private let state = Locked(State())

    init(parties count: Int) {
        self.count = count
    }

    /// Waits for the other parties; throws `Broken` if the barrier was broken.
    func arrive() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let released = state.withLock {
                state -> (parties: [CheckedContinuation<Void, any Error>], observers: [CheckedContinuation<Bool, Never>])? in
                if state.broken { return nil }
                state.arrived += 1
                state.parties.append(continuation)
                guard state.arrived >= count else { return ([], []) }
                defer { state.parties = []; state.observers = [] }
                return (state.parties, state.observers)
            }
            guard let released else {
                continuation.resume(throwing: Broken())
                return
            }
            released.parties.forEach { $0.resume() }
            released.observers.forEach { $0.resume(returning: true) }
        }
    }

    /// `true` once every party arrived; `false` (and the barrier broken) if that did not happen within
    /// `watchdog`.
    func waitForCompletion(watchdog: Duration = .seconds(10)) async -> Bool {
        await withTaskGroup(of: Bool?.self) { group in
            group.addTask {
                await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                    let done = self.state.withLock { state -> Bool? in
                        if state.broken { return false }
                        if state.arrived >= self.count { return true }
                        state.observers.append(continuation)
                        return nil
                    }
                    if let done { continuation.resume(returning: done) }
                }
            }
            group.addTask {
                try? await Task.sleep(for: watchdog)
                return nil
            }
            let first = await group.next() ?? nil
            if first == nil { breakBarrier() }
            group.cancelAll()
            return first ?? false
        }
    }

    private func breakBarrier() {
        let released = state.withLock { state -> ([CheckedContinuation<Void, any Error>], [CheckedContinuation<Bool, Never>]) in
            state.broken = true
            defer { state.parties = []; state.observers = [] }
            return (state.parties, state.observers)
        }
        released.0.forEach { $0.resume(throwing: Broken()) }
        released.1.forEach { $0.resume(returning: false) }
    }
}

/// What scripted providers report to a test, found by the name in their (Codable) configuration.
final class ScriptProbe: Sendable {
    private static let probes = Locked<[String: ScriptProbe]>([:])

    /// The probe named `name`, created on first use. Use a unique name per test.
    static func named(_ name: String) -> ScriptProbe {
        probes.withLock { probes in
            if let probe = probes[name] { return probe }
            let probe = ScriptProbe()
            probes[name] = probe
            return probe
        }
    }

    /// A fresh probe name.
    static func uniqueName(_ label: String) -> String { "\(label)-\(UUID().uuidString)" }

    /// Calls of `start()`.
    let startEntered = TestCounter()
    /// Calls that wait for their cancellation (`waitsForCancellation`).
    let callsEntered = TestCounter()
    /// The first `start()` waits here when the configuration says `waitAtGate`.
    let startGate = TestGate()
    /// Shared by the providers whose configuration sets `barrierParties`.
    let barrier = Locked<Barrier?>(nil)
    /// Calls of `shutdown()`.
    let shutdowns = TestCounter()
    /// Payloads delivered through the providers' analytics destinations, with whether the provider
    /// had already been shut down at that moment.
    let deliveries = Locked<[(payload: String, afterShutdown: Bool)]>([])

    func barrier(parties: Int) -> Barrier {
        barrier.withLock { barrier in
            if let barrier { return barrier }
            let created = Barrier(parties: parties)
            barrier = created
            return created
        }
    }
}

/// Polls `condition` until it holds; records an issue (and returns) when the test is cancelled first,
/// which only its deadline does (the code under test is then broken or hung).
func eventually(sourceLocation: SourceLocation = #_sourceLocation, _ condition: () async -> Bool) async {
    let met = await waitUntil(condition)
    if !met { Issue.record("Condition not met before the test was cancelled", sourceLocation: sourceLocation) }
}
