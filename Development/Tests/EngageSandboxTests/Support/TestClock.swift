import Foundation
@_spi(EngageProvider) @testable import EngageCore

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let current: Locked<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        current = Locked(start)
    }

    var now: Date { current.withLock { $0 } }

    /// The clock as the sandbox configuration wants it.
    var provider: @Sendable () -> Date { { self.now } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
