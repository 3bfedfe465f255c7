@_spi(EngageProvider) import EngageCore
import Foundation

/// Real time shifted by an adjustable offset, shared by the sandbox and the client so that a benchmark
/// can jump past token expiry on both sides at once while sleeps (timeouts) stay real.
@_spi(EngageProvider) public final class OffsetClock: EngageClock {
    private let offset = Locked<TimeInterval>(0)

    public init() {}

    public var now: Date { Date().addingTimeInterval(offset.value) }

    public func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration)
    }

    /// Moves this clock (and everything reading it) forward by `duration`.
    public func advance(by duration: Duration) {
        offset.withLock { $0 += duration.seconds }
    }
}

/// A value set once in a benchmark's setup and read in its teardown.
public final class Slot<Value: Sendable>: Sendable {
    private let storage = Locked<Value?>(nil)

    public init() {}

    /// Stores `value` and returns it.
    @discardableResult
    public func set(_ value: Value) -> Value {
        storage.withLock { $0 = value }
        return value
    }

    /// Removes and returns the stored value.
    public func take() -> Value? {
        storage.withLock { stored in
            let value = stored
            stored = nil
            return value
        }
    }
}

/// A benchmark invariant that did not hold (wrong refresh count, failed requests...): the benchmark
/// fails with this message instead of reporting meaningless numbers.
public struct BenchFailure: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
