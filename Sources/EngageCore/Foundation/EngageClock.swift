import Foundation

/// The source of time for everything time-dependent in EngageKit: token expiry, circuit breakers,
/// retry back-off, queue scheduling, a call's deadline and the durations it reports.
///
/// Inject a fake clock (see `EngageTesting.FakeClock`) to make such logic deterministic in tests.
@_spi(EngageProvider) public protocol EngageClock: Sendable {
    /// The current wall-clock time: what dates are compared with (a token's expiry, a `Retry-After`
    /// date, when an event happened).
    var now: Date { get }
    /// Time elapsed since a fixed point of this clock, which never goes back and ignores changes to
    /// the device's date: what deadlines and durations are measured on. A clock that does not provide
    /// it measures on the system's monotonic clock.
    var uptime: Duration { get }
    /// Suspends for `duration`, throwing `CancellationError` if the task is cancelled.
    func sleep(for duration: Duration) async throws
}

extension EngageClock {
    /// Time on `ContinuousClock` (which keeps counting while the device sleeps) since the process
    /// first read it: the system clock's reading, and that of every clock that has none of its own.
    public var uptime: Duration { SystemClock.monotonicUptime }
}

/// The real clock: `Date()`, the continuous clock and `Task.sleep`.
@_spi(EngageProvider) public struct SystemClock: EngageClock {
    /// Where the process's monotonic readings start.
    private static let origin = ContinuousClock.now

    /// The system clock.
    public init() {}

    /// The current time, `Date()`.
    public var now: Date { Date() }

    /// The system's monotonic reading (``EngageClock/uptime``) without an instance.
    static var monotonicUptime: Duration { ContinuousClock.now - origin }

    /// Sleeps with `Task.sleep`; throws `CancellationError` when the task is cancelled.
    public func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration)
    }
}

extension Duration {
    /// The duration in seconds as a `Double`.
    package var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// A duration from seconds expressed as a `Double`; negative or non-finite values become zero.
    package static func seconds(double value: Double) -> Duration {
        guard value.isFinite, value > 0 else { return .zero }
        return .nanoseconds(Int64(min(value, 9e9) * 1e9))
    }
}

extension Date {
    /// This date moved forward by `duration` (an ``EngageClock``'s date plus a delay it sleeps, in
    /// the core and in emulators alike).
    @_spi(EngageProvider) public func adding(_ duration: Duration) -> Date {
        addingTimeInterval(duration.seconds)
    }
}
