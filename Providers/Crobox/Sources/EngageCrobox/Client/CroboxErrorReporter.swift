@_spi(EngageProvider) import EngageCore
import Foundation

/// Decides whether the provider may report one of its own failures as a Crobox error event: at most
/// one per operation per interval, so a failing network never produces a storm of error events.
final class CroboxErrorReporter: Sendable {
    private let clock: any EngageClock
    private let interval: Duration
    private let lastReported = Locked<[String: Date]>([:])

    init(clock: any EngageClock, interval: Duration) {
        self.clock = clock
        self.interval = interval
    }

    /// Whether a failure of `operation` may be reported now (and records it if so).
    func shouldReport(_ operation: String) -> Bool {
        let now = clock.now
        return lastReported.withLock { last in
            if let previous = last[operation], now.timeIntervalSince(previous) < interval.seconds { return false }
            last[operation] = now
            return true
        }
    }
}
