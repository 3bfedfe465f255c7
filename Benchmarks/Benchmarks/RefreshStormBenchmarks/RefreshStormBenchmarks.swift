// Benchmark 2: refresh storm. 1000 concurrent authorised GETs (`/items?size=64`) while the access
// token is expired must make exactly one `POST /auth/refresh`, and every call must succeed; the
// benchmark fails otherwise. Each iteration first moves the clock shared by the sandbox and the client
// past the token's lifetime. Baseline: the same burst with a valid token.
//
// The storm benchmark also runs one baseline burst per iteration (outside its measured window) and
// records the per-pair ratio as "storm ÷ valid (‰)", plus the refreshes per storm (must be 1).

import Benchmark
@_spi(EngageProvider) import EngageBenchSupport

let benchmarks: @Sendable () -> Void = {
    let ratio = BenchmarkMetric.custom("storm ÷ valid (‰)", polarity: .prefersSmaller, useScalingFactor: false)
    let refreshes = BenchmarkMetric.custom("refreshes per storm", polarity: .prefersSmaller, useScalingFactor: false)
    let metrics: [BenchmarkMetric] = [.wallClock, .cpuTotal, .mallocCountTotal, .throughput, .peakMemoryResident]
    func configuration(_ metrics: [BenchmarkMetric]) -> Benchmark.Configuration {
        .init(
            metrics: metrics, units: [ratio: .count, refreshes: .count], warmupIterations: 1, maxDuration: .seconds(20),
            maxIterations: 10
        )
    }

    let baselineScenario = Slot<RefreshStormScenario>()
    Benchmark("1000 concurrent GETs, valid token (baseline)", configuration: configuration(metrics)) { benchmark, scenario in
        benchmark.startMeasurement()
        let outcome = await scenario.burst()
        benchmark.stopMeasurement()
        try scenario.verify(outcome, refreshes: 0)
    } setup: {
        baselineScenario.set(try await RefreshStormScenario.start(concurrency: 1000))
    } teardown: {
        await baselineScenario.take()?.stop()
    }

    let stormScenario = Slot<RefreshStormScenario>()
    Benchmark("1000 concurrent GETs, expired token (refresh storm)", configuration: configuration(metrics + [ratio, refreshes])) {
        benchmark, scenario in
        let baselineFirst = benchmark.currentIteration.isMultiple(of: 2)
        var valid = Duration.zero
        if baselineFirst { valid = try await scenario.validBurst() }
        scenario.expireToken()
        benchmark.startMeasurement()
        let (outcome, storm) = await timed { await scenario.burst() }
        benchmark.stopMeasurement()
        try scenario.verify(outcome, refreshes: 1)
        if !baselineFirst { valid = try await scenario.validBurst() }
        benchmark.measurement(refreshes, outcome.refreshes)
        benchmark.measurement(ratio, permille(storm, valid))
    } setup: {
        stormScenario.set(try await RefreshStormScenario.start(concurrency: 1000))
    } teardown: {
        await stormScenario.take()?.stop()
    }
}
