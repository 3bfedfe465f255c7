@_spi(EngageProvider) import EngageCore
import Foundation

/// A subject and its baseline measured in the same run, interleaved (A B, B A, A B, ...) so that drift
/// and load from other processes hit both alike.
public struct Comparison: Sendable {
    public var subject = Samples()
    public var baseline = Samples()
    /// subject ÷ baseline of each pair.
    public var pairedRatios: [Double] = []

    public init() {}

    /// median(subject) ÷ median(baseline): the ratio the goals are stated in.
    public var ratioOfMedians: Double {
        let base = baseline.median.seconds
        return base > 0 ? subject.median.seconds / base : .nan
    }

    /// The median of the per-pair ratios (robust to slow phases of the machine).
    public var medianPairedRatio: Double {
        guard !pairedRatios.isEmpty else { return .nan }
        let sorted = pairedRatios.sorted()
        return sorted[(sorted.count - 1) / 2]
    }

    /// Runs `warmup` unrecorded pairs, then `pairs` recorded ones. Each closure performs one operation
    /// and returns the time it measured (so it can leave its own preamble and clean-up out).
    public static func run(
        isolation: isolated (any Actor)? = #isolation,
        pairs: Int,
        warmup: Int,
        subject: () async throws -> Duration,
        baseline: () async throws -> Duration
    ) async throws -> Comparison {
        var comparison = Comparison()
        for index in 0..<(warmup + pairs) {
            let subjectTime: Duration
            let baselineTime: Duration
            if index.isMultiple(of: 2) {
                subjectTime = try await subject()
                baselineTime = try await baseline()
            } else {
                baselineTime = try await baseline()
                subjectTime = try await subject()
            }
            guard index >= warmup else { continue }
            comparison.subject.append(subjectTime)
            comparison.baseline.append(baselineTime)
            if baselineTime > .zero { comparison.pairedRatios.append(subjectTime.seconds / baselineTime.seconds) }
        }
        return comparison
    }
}

/// Measures `body` `iterations` times after `warmup` unrecorded runs; `body` returns its own time.
public func sample(
    isolation: isolated (any Actor)? = #isolation, iterations: Int, warmup: Int, _ body: (Int) async throws -> Duration
) async throws -> Samples {
    var samples = Samples()
    for index in 0..<(warmup + iterations) {
        let elapsed = try await body(index)
        if index >= warmup { samples.append(elapsed) }
    }
    return samples
}
