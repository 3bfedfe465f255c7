// Explore directory benchmarks on 1 000 000 generated locations (New York the densest city).
//
// Subject: the nearby query (radius 32 186.88 m = 20 miles around New York's centre, nearby tab, first
// page of 100 by distance, one row per merchant at its closest location) through the provider's
// index: R*Tree candidates, exact haversine, in-memory columns. Goal: p50 ≤ 10 ms.
//
// Baseline: the reference apps' method on the same file (a latitude/longitude box in SQL over the
// file's own indexes, then the distance filter and the closest-location grouping in Swift). Goal: the
// subject at least 10× faster, with identical results (checked in setup; a mismatch fails the run).
// The subject's benchmark also times one reference query per iteration outside its window and records
// the ratio reference ÷ index (×, goal ≥ 10).
//
// Also: text search (first page of a prefix search), and the install half of a sync on the benchmark
// directory's ~100 MB archive: verify (size + SHA-256) and swap; and verify, unpack and swap.

import Benchmark
@_spi(EngageProvider) import EngageBenchSupport
import Foundation

let benchmarks: @Sendable () -> Void = {
    let speedup = BenchmarkMetric.custom("reference ÷ index (×)", polarity: .prefersLarger, useScalingFactor: false)
    let metrics: [BenchmarkMetric] = [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident]
    func configuration(_ metrics: [BenchmarkMetric], iterations: Int = 200) -> Benchmark.Configuration {
        .init(metrics: metrics, units: [speedup: .count], warmupIterations: 3, maxDuration: .seconds(10), maxIterations: iterations)
    }

    let nearby = Slot<ExploreScenario>()
    Benchmark("explore nearby, 1M locations, 20 mi, first page of 100", configuration: configuration(metrics + [speedup])) {
        benchmark, scenario in
        benchmark.startMeasurement()
        let (answers, indexed) = try await timed { try scenario.indexed() }
        benchmark.stopMeasurement()
        blackHole(answers)
        let (reference, referenced) = try await timed { try scenario.referenceMethod() }
        blackHole(reference)
        benchmark.measurement(speedup, (permille(referenced, indexed) + 500) / 1000)
    } setup: { () throws -> ExploreScenario in
        let scenario = try ExploreScenario()
        let indexed = try scenario.indexed()
        let reference = try scenario.referenceMethod()
        guard indexed == reference, indexed.count == 100 else {
            throw ExploreBenchmarkError(
                message: "the index and the reference method disagree (\(indexed.count) vs \(reference.count) answers)")
        }
        return nearby.set(scenario)
    } teardown: {
        _ = nearby.take()
    }

    let baseline = Slot<ExploreScenario>()
    Benchmark("explore nearby, reference method (baseline)", configuration: configuration(metrics, iterations: 40)) { benchmark, scenario in
        blackHole(try scenario.referenceMethod())
    } setup: {
        baseline.set(try ExploreScenario())
    } teardown: {
        _ = baseline.take()
    }

    let install = Slot<ExploreSyncScenario>()
    Benchmark("explore sync: verify + swap, 1M-row archive", configuration: configuration(metrics, iterations: 40)) { benchmark, scenario in
        try scenario.verifyAndSwap()
    } setup: {
        let scenario = try ExploreSyncScenario()
        print("explore sync archive: \(String(format: "%.1f", scenario.archiveMegabytes)) MB")
        return install.set(scenario)
    } teardown: {
        _ = install.take()
    }

    let unpack = Slot<ExploreSyncScenario>()
    Benchmark("explore sync: verify + unpack + swap, 1M-row archive", configuration: configuration(metrics, iterations: 10)) {
        benchmark, scenario in
        try scenario.verifyUnpackAndSwap()
    } setup: {
        unpack.set(try ExploreSyncScenario())
    } teardown: {
        _ = unpack.take()
    }

    let search = Slot<ExploreScenario>()
    Benchmark("explore text search \"coff\", first page of 100", configuration: configuration(metrics)) { benchmark, scenario in
        blackHole(try scenario.search("coff"))
    } setup: {
        search.set(try ExploreScenario())
    } teardown: {
        _ = search.take()
    }
}

struct ExploreBenchmarkError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
