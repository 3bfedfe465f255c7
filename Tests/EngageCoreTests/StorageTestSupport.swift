import EngageCore
import Foundation
import Testing

/// A unique temporary directory for one test. Delete it with `defer { directory.remove() }`.
struct TemporaryDirectory {
    let path: String

    init() throws {
        let name = "engagekit-tests-" + UUID().uuidString
        path = FileManager.default.temporaryDirectory.appendingPathComponent(name).path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// `path/<component>`.
    func appending(_ component: String) -> String {
        path + "/" + component
    }
}

/// A clock that moves only when told to; `sleep` suspends until `advance` passes the deadline.
final class ManualClock: EngageClock {
    private struct Sleeper {
        var id: UInt64
        var deadline: Date
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Date
        var nextID: UInt64 = 0
        var sleepers: [Sleeper] = []
        var cancelledIDs: Set<UInt64> = []
    }

    private let state: Locked<State>

    init(now: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        state = Locked(State(now: now))
    }

    var now: Date { state.value.now }

    /// The number of tasks currently sleeping.
    var sleeperCount: Int { state.value.sleepers.count }

    func advance(by seconds: Double) {
        let due = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.now = state.now.addingTimeInterval(seconds)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    func sleep(for duration: Duration) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        let deadline = now.adding(duration)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Bool? in
                    if state.cancelledIDs.remove(id) != nil { return false }
                    if deadline <= state.now { return true }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return nil
                }
                switch outcome {
                case true?: continuation.resume()
                case false?: continuation.resume(throwing: CancellationError())
                case nil: break
                }
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                if let index = state.sleepers.firstIndex(where: { $0.id == id }) {
                    return state.sleepers.remove(at: index).continuation
                }
                state.cancelledIDs.insert(id)
                return nil
            }
            continuation?.resume(throwing: CancellationError())
        }
    }
}

/// Yields until `condition` holds, failing the test after about `seconds` of real time.
func eventually(
    timeout seconds: Double = 5, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () async -> Bool
) async {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if await condition() { return }
        try? await Task.sleep(for: .milliseconds(2))
    }
    Issue.record("Condition not met within \(seconds) s", sourceLocation: sourceLocation)
}

/// A random source that always returns the same fraction.
struct ConstantRandom: RandomSource {
    var fraction: Double
    func nextFraction() -> Double { fraction }
}

/// Expects `body` to throw an `EngageError` and returns it.
@discardableResult
func expectEngageError(
    _ code: EngageError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
) -> EngageError? {
    do {
        try body()
        Issue.record("Expected EngageError(\(code)), but nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch let error as EngageError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("Expected EngageError(\(code)), got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Expects async `body` to throw an `EngageError` and returns it.
@discardableResult
func expectEngageError(
    _ code: EngageError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
) async -> EngageError? {
    do {
        try await body()
        Issue.record("Expected EngageError(\(code)), but nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch let error as EngageError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("Expected EngageError(\(code)), got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
