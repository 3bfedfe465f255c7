@_spi(EngageProvider) import EngageCore
import Foundation

/// Durations measured with `ContinuousClock`, summarised as percentiles (nearest rank).
public struct Samples: Sendable {
    public private(set) var values: [Duration] = []

    public init() {}

    public mutating func append(_ value: Duration) {
        values.append(value)
    }

    public var count: Int { values.count }

    /// The `p`-th percentile (0...100), nearest-rank; `.zero` when empty.
    public func percentile(_ p: Double) -> Duration {
        guard !values.isEmpty else { return .zero }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    public var median: Duration { percentile(50) }
}

/// Times `body` with `ContinuousClock`.
public func timed<T>(
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
) async rethrows -> (T, Duration) {
    let clock = ContinuousClock()
    let start = clock.now
    let value = try await body()
    return (value, clock.now - start)
}

/// `numerator / denominator` in thousandths, for the harness's integer custom metrics.
public func permille(_ numerator: Duration, _ denominator: Duration) -> Int {
    let denominatorSeconds = denominator.seconds
    guard denominatorSeconds > 0 else { return 0 }
    return Int((numerator.seconds / denominatorSeconds * 1000).rounded())
}

extension Duration {
    /// A short human-readable form: `812 ns`, `73.4 µs`, `1.82 ms`, `2.41 s`.
    public var formatted: String {
        let value = seconds
        switch value {
        case ..<1e-6: return String(format: "%.0f ns", value * 1e9)
        case ..<1e-3: return String(format: "%.1f µs", value * 1e6)
        case ..<1: return String(format: "%.2f ms", value * 1e3)
        default: return String(format: "%.2f s", value)
        }
    }
}
