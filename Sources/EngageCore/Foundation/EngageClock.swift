import Foundation

/// The source of time for everything time-dependent in EngageKit: token expiry, circuit breakers,
/// retry back-off, queue scheduling.
///
/// Inject a fake clock (see `EngageTesting.FakeClock`) to make such logic deterministic in tests.
@_spi(EngageProvider) public protocol EngageClock: Sendable {
    /// The current wall-clock time.
    var now: Date { get }
    /// Suspends for `duration`, throwing `CancellationError` if the task is cancelled.
    func sleep(for duration: Duration) async throws
}

/// The real clock: `Date()` and `Task.sleep`.
@_spi(EngageProvider) public struct SystemClock: EngageClock {
    /// The system clock.
    public init() {}

    /// The current time, `Date()`.
    public var now: Date { Date() }

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
    /// This date moved forward by `duration`.
    package func adding(_ duration: Duration) -> Date {
        addingTimeInterval(duration.seconds)
    }
}
