@_spi(EngageProvider) import EngageCore
import Foundation

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
