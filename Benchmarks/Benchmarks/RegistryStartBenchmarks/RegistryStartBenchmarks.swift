// Benchmark 4: `ProviderRegistry(configuration:environment:)` + register five minimal providers (one
// migration each, an analytics destination registered in start()) + `start()` + `shutdown()` on a new
// file-backed database in a new directory each iteration. Goal: p50 < 5 ms.
//
// Baselines: opening a new `EngageDatabase` alone, and starting an empty registry. The five-provider
// benchmark also times both baselines in each iteration (outside its window, rotating the order) and
// records the per-iteration ratios. Closing databases and deleting directories is never measured.

import Benchmark
@_spi(EngageProvider) import EngageBenchSupport

let benchmarks: @Sendable () -> Void = {
    let overDatabase = BenchmarkMetric.custom("÷ new EngageDatabase (‰)", polarity: .prefersSmaller, useScalingFactor: false)
    let overEmpty = BenchmarkMetric.custom("÷ empty registry (‰)", polarity: .prefersSmaller, useScalingFactor: false)
    let metrics: [BenchmarkMetric] = [.wallClock, .cpuTotal, .mallocCountTotal, .throughput, .peakMemoryResident]
    func configuration(_ metrics: [BenchmarkMetric]) -> Benchmark.Configuration {
        .init(
            metrics: metrics, units: [overDatabase: .count, overEmpty: .count], warmupIterations: 3,
            maxDuration: .seconds(10), maxIterations: 100
        )
    }

    let databaseScenario = Slot<RegistryScenario>()
    Benchmark("new EngageDatabase (baseline)", configuration: configuration(metrics)) { benchmark, scenario in
        let path = scenario.newLocation()
        benchmark.startMeasurement()
        let database = try scenario.openDatabase(path: path)
        benchmark.stopMeasurement()
        scenario.discard(database, path: path)
    } setup: {
        databaseScenario.set(try RegistryScenario())
    } teardown: {
        databaseScenario.take()?.remove()
    }

    let emptyScenario = Slot<RegistryScenario>()
    Benchmark("empty registry start + shutdown, new DB (baseline)", configuration: configuration(metrics)) { benchmark, scenario in
        let path = scenario.newLocation()
        benchmark.startMeasurement()
        let registry = try await scenario.startAndShutDown(path: path, providers: [])
        benchmark.stopMeasurement()
        try await scenario.discard(registry, path: path)
    } setup: {
        emptyScenario.set(try RegistryScenario())
    } teardown: {
        emptyScenario.take()?.remove()
    }

    let fiveScenario = Slot<RegistryScenario>()
    Benchmark("registry start + 5 providers + shutdown, new DB", configuration: configuration(metrics + [overDatabase, overEmpty])) {
        benchmark, scenario in
        var database = Duration.zero
        var empty = Duration.zero
        var five = Duration.zero
        for step in 0..<3 {
            let path = scenario.newLocation()
            switch (benchmark.currentIteration + step) % 3 {
            case 0:
                benchmark.startMeasurement()
                let (registry, elapsed) = try await timed { try await scenario.startAndShutDown(path: path) }
                benchmark.stopMeasurement()
                five = elapsed
                try await scenario.discard(registry, path: path)
            case 1:
                let (registry, elapsed) = try await timed { try await scenario.startAndShutDown(path: path, providers: []) }
                empty = elapsed
                try await scenario.discard(registry, path: path)
            default:
                let (opened, elapsed) = try await timed { try scenario.openDatabase(path: path) }
                database = elapsed
                scenario.discard(opened, path: path)
            }
        }
        benchmark.measurement(overDatabase, permille(five, database))
        benchmark.measurement(overEmpty, permille(five, empty))
    } setup: {
        fiveScenario.set(try RegistryScenario())
    } teardown: {
        fiveScenario.take()?.remove()
    }
}
