// Benchmark 3: the durable analytics queue on a file-backed WAL database.
//
// (a) `enqueue(contentsOf:destination:)` of 1000 ~200-byte payloads vs a raw GRDB insert of the same
//     rows into an identical table in one transaction (goal: queue throughput ≥ 0.80× raw). The queue
//     benchmark also times one raw batch per iteration (outside its window, alternating order) and
//     records "throughput ÷ raw (‰)" = raw time ÷ queue time (goal ≥ 800).
// (b) single-event `enqueue(_:destination:)` latency (goal p50 < 100 µs), with the per-pair ratio to a
//     raw one-row GRDB commit of the same row ("single ÷ raw (‰)", goal ≤ 1100).
//
// Tables are emptied outside the measured windows so that their size stays bounded.

import Benchmark
@_spi(EngageProvider) import EngageBenchSupport

let benchmarks: @Sendable () -> Void = {
    let ratio = BenchmarkMetric.custom("throughput ÷ raw (‰)", polarity: .prefersLarger, useScalingFactor: false)
    let singleRatio = BenchmarkMetric.custom("single ÷ raw (‰)", polarity: .prefersSmaller, useScalingFactor: false)
    let metrics: [BenchmarkMetric] = [.wallClock, .cpuTotal, .mallocCountTotal, .throughput, .peakMemoryResident]
    func batchConfiguration(_ metrics: [BenchmarkMetric]) -> Benchmark.Configuration {
        .init(metrics: metrics, units: [ratio: .count], warmupIterations: 5, maxDuration: .seconds(6), maxIterations: 300)
    }

    let rawScenario = Slot<QueueScenario>()
    Benchmark("1000 x 200 B, raw GRDB insert in one transaction (baseline)", configuration: batchConfiguration(metrics)) {
        benchmark, scenario in
        benchmark.startMeasurement()
        try await scenario.rawInsertBatch()
        benchmark.stopMeasurement()
        guard try await scenario.clearRaw() == scenario.batchSize else { throw BenchFailure("raw table lost rows") }
    } setup: {
        rawScenario.set(try QueueScenario.make())
    } teardown: {
        rawScenario.take()?.close()
    }

    let batchScenario = Slot<QueueScenario>()
    Benchmark("1000 x 200 B, DurableQueue.enqueue(contentsOf:)", configuration: batchConfiguration(metrics + [ratio])) {
        benchmark, scenario in
        let rawFirst = benchmark.currentIteration.isMultiple(of: 2)
        var raw = Duration.zero
        if rawFirst {
            raw = try await timed { try await scenario.rawInsertBatch() }.1
            try await scenario.clearRaw()
        }
        benchmark.startMeasurement()
        let queue = try await timed { try await scenario.enqueueBatch() }.1
        benchmark.stopMeasurement()
        guard try await scenario.clearQueue() == scenario.batchSize else { throw BenchFailure("queue lost rows") }
        if !rawFirst {
            raw = try await timed { try await scenario.rawInsertBatch() }.1
            try await scenario.clearRaw()
        }
        benchmark.measurement(ratio, permille(raw, queue))
    } setup: {
        batchScenario.set(try QueueScenario.make())
    } teardown: {
        batchScenario.take()?.close()
    }

    let singleScenario = Slot<QueueScenario>()
    Benchmark(
        "1 event, DurableQueue.enqueue(_:) latency",
        configuration: .init(
            metrics: metrics + [singleRatio], units: [singleRatio: .count], warmupIterations: 200, maxDuration: .seconds(6),
            maxIterations: 5_000
        )
    ) { benchmark, scenario in
        let iteration = benchmark.currentIteration
        if iteration.isMultiple(of: 1000) {
            try await scenario.clearQueue()
            try await scenario.clearRaw()
        }
        let rawFirst = iteration.isMultiple(of: 2)
        var raw = Duration.zero
        if rawFirst {
            raw = try await timed { try await scenario.rawInsertOne(iteration, countBytesLikeQueue: false, synchronously: true) }.1
        }
        benchmark.startMeasurement()
        let single = try await timed { try await scenario.enqueueOne(iteration) }.1
        benchmark.stopMeasurement()
        if !rawFirst {
            raw = try await timed { try await scenario.rawInsertOne(iteration, countBytesLikeQueue: false, synchronously: true) }.1
        }
        benchmark.measurement(singleRatio, permille(single, raw))
    } setup: {
        singleScenario.set(try QueueScenario.make())
    } teardown: {
        singleScenario.take()?.close()
    }
}
