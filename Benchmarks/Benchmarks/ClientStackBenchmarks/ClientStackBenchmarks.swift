// Benchmark 1: an authorised GET through the full client stack vs bare URLSession.
//
// Both benchmarks run against the reference emulator on 127.0.0.1 (in this process) with one shared
// URLSession and a token valid for the whole run (no refresh). The stack benchmark also times a bare
// request in each iteration, outside its measured window and alternating before/after, and records
// the per-pair ratio as the custom metric "stack ÷ bare (‰)": 1000 = no overhead; goal ≤ 1050. A third
// benchmark runs the stack on the transport's own session, as apps get it (same goal).
//
// Note: the server runs in-process, so cpuTotal and mallocCountTotal include the server's share.

import Benchmark
@_spi(EngageProvider) import EngageBenchSupport

let benchmarks: @Sendable () -> Void = {
    let ratio = BenchmarkMetric.custom("stack ÷ bare (‰)", polarity: .prefersSmaller, useScalingFactor: false)
    let metrics: [BenchmarkMetric] = [.wallClock, .cpuTotal, .mallocCountTotal, .throughput, .peakMemoryResident]
    func configuration(_ metrics: [BenchmarkMetric]) -> Benchmark.Configuration {
        .init(metrics: metrics, units: [ratio: .count], warmupIterations: 100, maxDuration: .seconds(8), maxIterations: 1_500)
    }

    let baselineScenario = Slot<ClientStackScenario>()
    Benchmark("GET items 2 KB, bare URLSession (baseline)", configuration: configuration(metrics)) { benchmark, scenario in
        blackHole(try await scenario.fetchViaURLSession())
    } setup: {
        baselineScenario.set(try await ClientStackScenario.start())
    } teardown: {
        await baselineScenario.take()?.stop()
    }

    let stackScenario = Slot<ClientStackScenario>()
    Benchmark("GET items 2 KB, full client stack", configuration: configuration(metrics + [ratio])) { benchmark, scenario in
        let baselineFirst = benchmark.currentIteration.isMultiple(of: 2)
        var bare = Duration.zero
        if baselineFirst { bare = try await timed { try await scenario.fetchViaURLSession() }.1 }
        benchmark.startMeasurement()
        let (data, stack) = try await timed { try await scenario.fetchViaStack() }
        benchmark.stopMeasurement()
        blackHole(data)
        if !baselineFirst { bare = try await timed { try await scenario.fetchViaURLSession() }.1 }
        benchmark.measurement(ratio, permille(stack, bare))
    } setup: {
        stackScenario.set(try await ClientStackScenario.start())
    } teardown: {
        guard let scenario = stackScenario.take() else { return }
        do {
            try await scenario.verifyNoRefresh()
        } catch {
            await scenario.stop()
            throw error
        }
        await scenario.stop()
    }

    // The same on the transport's own session (`URLSessionTransport()`, with its size-limit, stall and
    // redirect delegate), as apps get it; the bare request stays on the scenario's plain session.
    let ownSessionScenario = Slot<ClientStackScenario>()
    Benchmark("GET items 2 KB, full client stack on the transport's own session", configuration: configuration(metrics + [ratio])) {
        benchmark, scenario in
        let baselineFirst = benchmark.currentIteration.isMultiple(of: 2)
        var bare = Duration.zero
        if baselineFirst { bare = try await timed { try await scenario.fetchViaURLSession() }.1 }
        benchmark.startMeasurement()
        let (data, stack) = try await timed { try await scenario.fetchViaStackOnOwnSession() }
        benchmark.stopMeasurement()
        blackHole(data)
        if !baselineFirst { bare = try await timed { try await scenario.fetchViaURLSession() }.1 }
        benchmark.measurement(ratio, permille(stack, bare))
    } setup: {
        ownSessionScenario.set(try await ClientStackScenario.start())
    } teardown: {
        await ownSessionScenario.take()?.stop()
    }
}
