@_spi(EngageProvider) @testable import EngageCore
import Foundation
import Testing

/// The bounds every test of this package runs within, so that `swift test` as the README writes it
/// passes on a two-core machine and cannot wait forever:
///
/// - **Tests at once.** Swift Testing starts every test of the run at once; on two cores a thousand
///   tests that each talk to an emulator over loopback starve one another until real-time limits
///   (request timeouts, call deadlines) fire in tests that did nothing wrong. A test waits here for one
///   of ``width`` slots (a heavy test for ``Weight/heavy``'s share of them) before it runs; the wait
///   does not count towards its deadline, and nothing here reads an environment variable.
/// - **A deadline.** A test still running after its deadline (five minutes unless the suite says
///   otherwise; the whole suite takes about two) is recorded as a failure that names it, and cancelled.
///   Every wait of the test kit ends on cancellation. A test that still has not ended a minute after
///   that ignores cancellation: the process then writes the test's name to standard error and exits
///   with status 124, so the run fails naming the test instead of hanging.
///
/// ```swift
/// @Suite("DurableQueue", .bounded) struct DurableQueueTests { … }
/// @Suite("Hostile answers", .bounded(.heavy)) struct HostileAnswerTests { … }
/// ```
///
/// Nested suites and parameterised tests take one slot per test case, however many bounded suites
/// enclose them; a test may add `.bounded(deadline: …)` of its own for a shorter deadline. Use that,
/// not `.timeLimit`, whose clock also runs while the test waits for its slot. `.ci/check-test-bounds` fails CI when a suite of this package lacks the trait.
public struct Bounded: SuiteTrait, TestTrait, TestScoping {
    /// How much of the machine a test takes.
    public enum Weight: Sendable {
        /// One slot: a test that mostly waits on loopback I/O.
        case normal
        /// Half the slots: a CPU-heavy test (hundreds of hostile answers, thousands of events, a
        /// GraphQL server's work), so that at most two run at once and the others still get the cores.
        case heavy
    }

    /// How many slots there are: six per core, at least eight (twelve on two cores: the width at which
    /// the suite was measured to pass on a loaded two-core machine).
    public static let width = max(8, 6 * ProcessInfo.processInfo.activeProcessorCount)

    /// The slots a test of `weight` takes.
    static func slots(for weight: Weight) -> Int {
        switch weight {
        case .normal: 1
        case .heavy: max(1, width / 2)
        }
    }

    /// How long a test case may run once it has its slots.
    public var deadline: Duration
    /// How much of the machine it takes.
    public var weight: Weight

    /// Applies to every test of the suite, nested suites included.
    public var isRecursive: Bool { true }

    @TaskLocal private static var isInside = false
    private static let limiter = SlotLimiter(width: width)

    /// Scopes each test case (a test function without arguments has one), never a suite as a whole.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        test.isSuite || testCase == nil ? nil : self
    }

    /// Runs one test case within the bounds: the first bounded scope of a case (a suite's or the test's
    /// own) takes the slots of the heaviest `.bounded` on the test and the shortest of their deadlines;
    /// the others add nothing.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        if Self.isInside { return try await function() }
        let bounds = test.traits.compactMap { $0 as? Bounded } + [self]
        let slots = bounds.map { Self.slots(for: $0.weight) }.max() ?? 1
        let deadline = bounds.map(\.deadline).min() ?? deadline
        try await Self.limiter.acquire(slots)
        defer { Self.limiter.release(slots) }
        try await Self.$isInside.withValue(true) {
            try await Self.run(function, named: test.name, in: test.sourceLocation, deadline: deadline)
        }
    }

    /// Runs `function` as a child task beside a watchdog: past `deadline` the watchdog records a
    /// failure and cancels the test; a minute later, if the test has still not ended, it ends the process.
    private static func run(
        _ function: @Sendable () async throws -> Void, named name: String, in location: SourceLocation, deadline: Duration
    ) async throws {
        try await withoutActuallyEscaping(function) { body in
            try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    try await body()
                    return true
                }
                group.addTask {
                    // A watchdog cancelled because the test ended returns at once.
                    guard (try? await Task.sleep(for: deadline)) != nil else { return false }
                    Issue.record(
                        "\(name) (\(location.fileID):\(location.line)) did not finish within \(deadline): it is hung, and is cancelled.",
                        sourceLocation: location)
                    return false
                }
                var lastResort: Task<Void, Never>?
                defer { lastResort?.cancel() }
                // The test's own result (or error) decides; the watchdog only ever returns false.
                while let finished = try await group.next() {
                    group.cancelAll()
                    if finished { return }
                    // Past the deadline: the test is cancelled; if it ignores that, the run ends.
                    lastResort = Task.detached {
                        guard (try? await Task.sleep(for: .seconds(60))) != nil else { return }
                        let message =
                            "error: the test \(name) (\(location.fileID):\(location.line)) ignored its cancellation for 60 s; ending the test run.\n"
                        FileHandle.standardError.write(Data(message.utf8))
                        exit(124)
                    }
                }
            }
        }
    }
}

extension Trait where Self == Bounded {
    /// Runs each test within the package's bounds: a slot among ``Bounded/width``, and a deadline of
    /// five minutes.
    public static var bounded: Self { Bounded(deadline: .seconds(300), weight: .normal) }

    /// Runs each test within the package's bounds, with the `weight` given and a deadline (five
    /// minutes unless given).
    public static func bounded(_ weight: Bounded.Weight, deadline: Duration = .seconds(300)) -> Self {
        Bounded(deadline: deadline, weight: weight)
    }

    /// A shorter deadline for one test of a bounded suite, counted from the moment the test has its
    /// slots (Swift Testing's `.timeLimit` would count the wait for them too). The suite's weight
    /// stays.
    public static func bounded(deadline: Duration) -> Self {
        Bounded(deadline: deadline, weight: .normal)
    }
}

/// A counting semaphore for async code whose waits end on cancellation, served in arrival order.
final class SlotLimiter: Sendable {
    private struct Waiter {
        var id: UInt64
        var slots: Int
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var free: Int
        var nextID: UInt64 = 0
        var waiters: [Waiter] = []
    }

    private let state: Locked<State>

    init(width: Int) {
        state = Locked(State(free: width))
    }

    /// Waits until `slots` are free and takes them; throws `CancellationError` when cancelled first.
    func acquire(_ slots: Int) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome { case granted, cancelled, waiting }
                // Decided under the lock: a waiter once queued is resumed by `release` or by the
                // cancellation handler, never here.
                let outcome = state.withLock { state -> Outcome in
                    if Task.isCancelled { return .cancelled }
                    if state.waiters.isEmpty && state.free >= slots {
                        state.free -= slots
                        return .granted
                    }
                    state.waiters.append(Waiter(id: id, slots: slots, continuation: continuation))
                    return .waiting
                }
                switch outcome {
                case .granted: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .waiting: break
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Gives `slots` back and wakes the waiters they are enough for, first come first served.
    func release(_ slots: Int) {
        let woken = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.free += slots
            var woken: [CheckedContinuation<Void, any Error>] = []
            while let first = state.waiters.first, first.slots <= state.free {
                state.free -= first.slots
                woken.append(state.waiters.removeFirst().continuation)
            }
            return woken
        }
        woken.forEach { $0.resume() }
    }
}
