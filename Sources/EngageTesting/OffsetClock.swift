@_spi(EngageProvider) import EngageCore
import Foundation

/// Real time shifted by an offset the test moves: share one between a sandbox and a client to jump
/// both past a token's expiry at once, while sleeps (timeouts, back-off) stay real. Deadlines and
/// durations (`uptime`) stay on the system's monotonic clock, which the offset does not move.
///
/// ```swift
/// let clock = OffsetClock()
/// clock.advance(by: .seconds(3600))  // every token issued an hour ago has expired, on both sides
/// ```
@_spi(EngageProvider) public final class OffsetClock: EngageClock {
    private let offset = Locked<TimeInterval>(0)

    /// A clock reading the device's time.
    public init() {}

    /// The device's time plus everything ``advance(by:)`` added.
    public var now: Date { Date().addingTimeInterval(offset.value) }

    /// Sleeps for real with `Task.sleep`.
    public func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration)
    }

    /// Moves ``now`` forward by `duration` (back, for a negative one), for everything reading this clock.
    public func advance(by duration: Duration) {
        offset.withLock { $0 += duration.seconds }
    }
}
