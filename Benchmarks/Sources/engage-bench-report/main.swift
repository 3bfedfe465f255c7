// engage-bench-report: runs the EngageKit comparisons (and the offline backlog) with ContinuousClock, each subject
// interleaved with its baseline in the same run, and prints medians, p99 and ratios against the goals.
//
//   swift run -c release engage-bench-report [--quick] [--strict] [--only client,storm,queue,registry,youll,backlog]
//
// The same scenarios run in the benchmark harness (`swift package benchmark`), which adds percentiles,
// allocation counts and baselines; this tool exists because the harness does not report ratios.

@_spi(EngageProvider) import EngageBenchSupport
import Foundation

struct Options {
    var quick = false
    var strict = false
    var only: Set<String> = ["client", "storm", "queue", "registry", "youll", "backlog"]
    /// Also print where the client stack's and the single enqueue's time goes.
    var diagnose = false
    /// Profiling aid: loop one operation for this many seconds, print nothing else (for `perf record`).
    var spin: (operation: String, seconds: Double)?

    init(arguments: [String]) throws {
        var iterator = arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--quick": quick = true
            case "--strict": strict = true
            case "--diagnose": diagnose = true
            case "--spin":
                guard let operation = iterator.next(), let seconds = iterator.next().flatMap(Double.init) else {
                    throw BenchFailure(
                        "--spin needs an operation (stack-in-memory, stack, bare, enqueue, feed, bare-feed, registry, registry-empty) "
                            + "and seconds")
                }
                spin = (operation, seconds)
            case "--only":
                guard let list = iterator.next() else { throw BenchFailure("--only needs a list") }
                only = Set(list.split(separator: ",").map(String.init))
            case "-h", "--help":
                print("usage: engage-bench-report [--quick] [--strict] [--diagnose] [--only client,storm,queue,registry,youll,backlog]")
                exit(0)
            default:
                throw BenchFailure("unknown argument \(argument)")
            }
        }
    }

    func count(_ full: Int, quick reduced: Int) -> Int { quick ? reduced : full }
}

struct Row {
    var name: String
    var subject: String
    var baseline: String
    var ratio: String
    var goal: String
    var passed: Bool?
}

/// Records a row and logs it at once, so that results survive a crash of a later section.
@MainActor func add(_ row: Row) {
    rows.append(row)
    let result = row.passed.map { $0 ? "met" : "missed" } ?? ""
    log("  \(row.name): \(row.subject) | \(row.baseline) | \(row.ratio) | \(row.goal) \(result)")
}

func ratioText(_ value: Double) -> String { String(format: "%.3f×", value) }
func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "n/a"
}
func log(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

let options: Options
do {
    options = try Options(arguments: CommandLine.arguments)
} catch {
    log("\(error)")
    exit(2)
}

if let (operation, seconds) = options.spin {
    // Profiling aid: run one operation in a loop, e.g. `perf record -g engage-bench-report --spin stack 10`.
    let deadline = ContinuousClock.now + .seconds(seconds)
    var count = 0
    if operation == "enqueue" {
        let scenario = try QueueScenario.make()
        while ContinuousClock.now < deadline {
            if count.isMultiple(of: 1000) { try await scenario.clearQueue() }
            try await scenario.enqueueOne(count)
            count += 1
        }
        scenario.close()
    } else if operation == "registry" || operation == "registry-empty" {
        let scenario = try RegistryScenario()
        while ContinuousClock.now < deadline {
            let path = scenario.newLocation()
            let providers = operation == "registry" ? RegistryScenario.registrations : []
            let registry = try await scenario.startAndShutDown(path: path, providers: providers)
            try await scenario.discard(registry, path: path)
            count += 1
        }
        scenario.remove()
    } else if operation == "feed" || operation == "bare-feed" {
        let scenario = try await YoullScenario.start()
        while ContinuousClock.now < deadline {
            _ = try await operation == "feed" ? scenario.homeFeedViaStack() : scenario.homeFeedViaURLSession()
            count += 1
        }
        await scenario.stop()
    } else {
        let scenario = try await ClientStackScenario.start()
        let diagnostics = try await ClientStackDiagnostics(scenario: scenario)
        let body: @Sendable () async throws -> Data
        switch operation {
        case "stack-in-memory": body = diagnostics.inMemoryFull
        case "bare-in-memory": body = diagnostics.inMemoryBare
        case "stack": body = { try await scenario.fetchViaStack() }
        default: body = { try await scenario.fetchViaURLSession() }
        }
        while ContinuousClock.now < deadline {
            _ = try await body()
            count += 1
        }
        await scenario.stop()
    }
    log("\(operation): \(count) operations in \(seconds) s")
    exit(0)
}

var rows: [Row] = []
var notes: [String] = []
var hadError = false
let started = ContinuousClock.now
log("EngageKit benchmark report: \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(loadAverage())")

// 1. Authorised GET through the full client stack vs bare URLSession.
if options.only.contains("client") {
    do {
        log("1/6 client stack vs bare URLSession ...")
        let scenario = try await ClientStackScenario.start()
        let comparison = try await Comparison.run(
            pairs: options.count(1000, quick: 200), warmup: options.count(100, quick: 30),
            subject: { try await timed { try await scenario.fetchViaStack() }.1 },
            baseline: { try await timed { try await scenario.fetchViaURLSession() }.1 }
        )
        // Apps get the transport's own session (its delegate enforces the size limit, the stall
        // watchdog and the redirect rule): the same comparison on it, against the same bare session.
        let ownSession = try await Comparison.run(
            pairs: options.count(1000, quick: 200), warmup: options.count(100, quick: 30),
            subject: { try await timed { try await scenario.fetchViaStackOnOwnSession() }.1 },
            baseline: { try await timed { try await scenario.fetchViaURLSession() }.1 }
        )
        if options.diagnose {
            let diagnostics = try await ClientStackDiagnostics(scenario: scenario)
            let rounds = options.count(400, quick: 100)
            var samples = Array(repeating: Samples(), count: diagnostics.variants.count)
            for round in 0..<(rounds + 20) {
                // Rotate the starting variant so that no variant always follows the same one.
                for step in diagnostics.variants.indices {
                    let index = (round + step) % diagnostics.variants.count
                    let elapsed = try await timed { try await diagnostics.variants[index].fetch() }.1
                    if round >= 20 { samples[index].append(elapsed) }
                }
            }
            let bare = samples[0].median
            notes.append("client-stack breakdown (p50 each, Δ vs bare URLSession, \(rounds) rounds):")
            for (index, variant) in diagnostics.variants.enumerated() {
                let median = samples[index].median
                notes.append(
                    "  \(variant.name): \(median.formatted) (Δ \((median - bare).formatted), p99 \(samples[index].percentile(99).formatted))"
                )
            }
            let memory = try await Comparison.run(
                pairs: options.count(5000, quick: 1000), warmup: 200,
                subject: { try await timed { try await diagnostics.inMemoryFull() }.1 },
                baseline: { try await timed { try await diagnostics.inMemoryBare() }.1 }
            )
            notes.append(
                "  in memory (no network): full stack p50 \(memory.subject.median.formatted) vs APIClient without middleware "
                    + "\(memory.baseline.median.formatted): middleware costs \((memory.subject.median - memory.baseline.median).formatted)"
            )
        }
        try await scenario.verifyNoRefresh()
        await scenario.stop()
        let ratio = comparison.ratioOfMedians
        add(
            Row(
                name: "1 GET /items 2 KB: client stack ÷ bare URLSession",
                subject: "p50 \(comparison.subject.median.formatted), p99 \(comparison.subject.percentile(99).formatted)",
                baseline: "p50 \(comparison.baseline.median.formatted), p99 \(comparison.baseline.percentile(99).formatted)",
                ratio: "\(ratioText(ratio)) (paired \(ratioText(comparison.medianPairedRatio)))",
                goal: "≤ 1.05×", passed: ratio <= 1.05
            ))
        let ownRatio = ownSession.ratioOfMedians
        add(
            Row(
                name: "1b same, the transport's own session (as apps get it) ÷ bare URLSession",
                subject: "p50 \(ownSession.subject.median.formatted), p99 \(ownSession.subject.percentile(99).formatted)",
                baseline: "p50 \(ownSession.baseline.median.formatted), p99 \(ownSession.baseline.percentile(99).formatted)",
                ratio: "\(ratioText(ownRatio)) (paired \(ratioText(ownSession.medianPairedRatio)))",
                goal: "≤ 1.05×", passed: ownRatio <= 1.05
            ))
    } catch {
        log("1 client stack failed: \(error)")
        hadError = true
        add(Row(name: "1 client stack", subject: "FAILED: \(error)", baseline: "", ratio: "", goal: "", passed: false))
    }
}

// 2. Refresh storm.
if options.only.contains("storm") {
    do {
        log("2/6 refresh storm (1000 concurrent, expired token) vs valid-token burst ...")
        let scenario = try await RefreshStormScenario.start(concurrency: 1000)
        let pairs = options.count(10, quick: 3)
        let comparison = try await Comparison.run(
            pairs: pairs, warmup: 1,
            subject: { try await scenario.storm() },
            baseline: { try await scenario.validBurst() }
        )
        let totalRefreshes = scenario.totalRefreshes
        await scenario.stop()
        let ratio = comparison.ratioOfMedians
        add(
            Row(
                name: "2 refresh storm, 1000 concurrent GETs ÷ same burst with valid token",
                subject: "p50 \(comparison.subject.median.formatted), max \(comparison.subject.percentile(100).formatted)",
                baseline: "p50 \(comparison.baseline.median.formatted), max \(comparison.baseline.percentile(100).formatted)",
                ratio: "\(ratioText(ratio)) (paired \(ratioText(comparison.medianPairedRatio)))",
                goal: "1 refresh/storm, 1000/1000 ok",
                passed: totalRefreshes == pairs + 1  // every storm (incl. warm-up) verified exactly 1 refresh and 0 failures
            ))
        notes.append("storm: \(pairs + 1) storms, \(totalRefreshes) refreshes in total, every call succeeded")
    } catch {
        log("2 refresh storm failed: \(error)")
        hadError = true
        add(Row(name: "2 refresh storm", subject: "FAILED: \(error)", baseline: "", ratio: "", goal: "", passed: false))
    }
}

// 3. Durable queue.
if options.only.contains("queue") {
    do {
        log("3/6 durable queue: batch enqueue vs raw GRDB, single enqueue latency ...")
        let scenario = try QueueScenario.make(batchSize: 1000, payloadSize: 200)
        let comparison = try await Comparison.run(
            pairs: options.count(100, quick: 30), warmup: 5,
            subject: {
                let elapsed = try await timed { try await scenario.enqueueBatch() }.1
                guard try await scenario.clearQueue() == scenario.batchSize else { throw BenchFailure("queue lost rows") }
                return elapsed
            },
            baseline: {
                let elapsed = try await timed { try await scenario.rawInsertBatch() }.1
                guard try await scenario.clearRaw() == scenario.batchSize else { throw BenchFailure("raw table lost rows") }
                return elapsed
            }
        )
        // Throughput ratio = raw time ÷ queue time.
        let throughputRatio = 1 / comparison.ratioOfMedians
        let perEvent = { (duration: Duration) in (duration / scenario.batchSize).formatted }
        add(
            Row(
                name: "3a enqueue(contentsOf:) 1000 × 200 B, throughput ÷ raw GRDB insert",
                subject: "p50 \(comparison.subject.median.formatted) (\(perEvent(comparison.subject.median))/event)",
                baseline: "p50 \(comparison.baseline.median.formatted) (\(perEvent(comparison.baseline.median))/event)",
                ratio: "\(ratioText(throughputRatio)) (paired \(ratioText(1 / comparison.medianPairedRatio)))",
                goal: "≥ 0.80×", passed: throughputRatio >= 0.8
            ))

        // One event, durable at return, against a raw one-row GRDB commit of the same row into the
        // same schema (blocking write, as the queue's single enqueue), interleaved in one run.
        var committed = 0
        let singleVersusRaw = try await Comparison.run(
            pairs: options.count(3000, quick: 1000), warmup: 200,
            subject: {
                if committed.isMultiple(of: 1000) { try await scenario.clearQueue() }
                return try await timed { try await scenario.enqueueOne(committed) }.1
            },
            baseline: {
                committed += 1
                if committed.isMultiple(of: 1000) { try await scenario.clearRaw() }
                return try await timed { try await scenario.rawInsertOne(committed, countBytesLikeQueue: false, synchronously: true) }.1
            }
        )
        add(
            Row(
                name: "3c enqueue(_:) one event ÷ raw one-row GRDB commit",
                subject: "p50 \(singleVersusRaw.subject.median.formatted), p99 \(singleVersusRaw.subject.percentile(99).formatted)",
                baseline: "p50 \(singleVersusRaw.baseline.median.formatted), p99 \(singleVersusRaw.baseline.percentile(99).formatted)",
                ratio: "\(ratioText(singleVersusRaw.ratioOfMedians)) (paired \(ratioText(singleVersusRaw.medianPairedRatio)))",
                goal: "≤ 1.10×", passed: singleVersusRaw.ratioOfMedians <= 1.1
            ))

        let single = try await sample(iterations: options.count(5000, quick: 1000), warmup: 200) { index in
            if index.isMultiple(of: 1000) { try await scenario.clearQueue() }
            return try await timed { try await scenario.enqueueOne(index) }.1
        }
        if options.diagnose {
            // Rotate: queue, raw async insert, raw blocking insert, raw blocking insert + byte counter; tables emptied every 1000 rows.
            var measured = [Samples(), Samples(), Samples(), Samples()]
            let rounds = options.count(3000, quick: 1000)
            for round in 0..<(rounds + 200) {
                if round.isMultiple(of: 1000) {
                    try await scenario.clearQueue()
                    try await scenario.clearRaw()
                }
                for step in 0..<4 {
                    let which = (round + step) % 4
                    let elapsed: Duration
                    switch which {
                    case 0: elapsed = try await timed { try await scenario.enqueueOne(round) }.1
                    case 1: elapsed = try await timed { try await scenario.rawInsertOne(round, countBytesLikeQueue: false) }.1
                    case 2:
                        elapsed = try await timed {
                            try await scenario.rawInsertOne(round, countBytesLikeQueue: false, synchronously: true)
                        }.1
                    default:
                        elapsed = try await timed {
                            try await scenario.rawInsertOne(round, countBytesLikeQueue: true, synchronously: true)
                        }.1
                    }
                    if round >= 200 { measured[which].append(elapsed) }
                }
            }
            notes.append("single-enqueue breakdown (p50 / p99, \(rounds) rounds, interleaved):")
            for (name, samples) in zip(
                [
                    "DurableQueue.enqueue(_:)", "raw GRDB async write, 1 INSERT", "raw GRDB blocking write, 1 INSERT",
                    "raw GRDB blocking write, INSERT + UPDATE of a one-row byte counter",
                ],
                measured
            ) {
                notes.append("  \(name): \(samples.median.formatted) / \(samples.percentile(99).formatted)")
            }
        }
        scenario.close()
        add(
            Row(
                name: "3b enqueue(_:) one event, latency",
                subject: "p50 \(single.median.formatted), p90 \(single.percentile(90).formatted), p99 \(single.percentile(99).formatted)",
                baseline: "-", ratio: "-", goal: "p50 < 100 µs", passed: single.median < .microseconds(100)
            ))
    } catch {
        log("3 durable queue failed: \(error)")
        hadError = true
        add(Row(name: "3 durable queue", subject: "FAILED: \(error)", baseline: "", ratio: "", goal: "", passed: false))
    }
}

// 4. Registry start with five providers on a new database.
if options.only.contains("registry") {
    do {
        log("4/6 registry start, five providers, new database ...")
        let scenario = try RegistryScenario()
        var fiveProviders = Samples()
        var emptyRegistry = Samples()
        var databaseOnly = Samples()
        let iterations = options.count(40, quick: 10)
        for index in 0..<(iterations + 3) {
            // Rotate the order of the three measurements.
            for step in 0..<3 {
                let path = scenario.newLocation()
                switch (index + step) % 3 {
                case 0:
                    let (registry, elapsed) = try await timed { try await scenario.startAndShutDown(path: path) }
                    try await scenario.discard(registry, path: path)
                    if index >= 3 { fiveProviders.append(elapsed) }
                case 1:
                    let (registry, elapsed) = try await timed { try await scenario.startAndShutDown(path: path, providers: []) }
                    try await scenario.discard(registry, path: path)
                    if index >= 3 { emptyRegistry.append(elapsed) }
                default:
                    let (database, elapsed) = try await timed { try scenario.openDatabase(path: path) }
                    scenario.discard(database, path: path)
                    if index >= 3 { databaseOnly.append(elapsed) }
                }
            }
        }
        scenario.remove()
        let p50 = fiveProviders.median
        add(
            Row(
                name: "4 registry start + 5 providers + shutdown, new DB",
                subject: "p50 \(p50.formatted), p99 \(fiveProviders.percentile(99).formatted)",
                baseline: "new EngageDatabase p50 \(databaseOnly.median.formatted)",
                ratio: ratioText(p50 / databaseOnly.median),
                goal: "p50 < 5 ms", passed: p50 < .milliseconds(5)
            ))
        add(
            Row(
                name: "  same ÷ empty registry start + shutdown",
                subject: "", baseline: "empty registry p50 \(emptyRegistry.median.formatted)",
                ratio: ratioText(p50 / emptyRegistry.median), goal: "(report)", passed: nil
            ))
    } catch {
        log("4 registry start failed: \(error)")
        hadError = true
        add(Row(name: "4 registry start", subject: "FAILED: \(error)", baseline: "", ratio: "", goal: "", passed: false))
    }
}

// 5. Youll: the home feed through the full stack vs a bare POST; a cache hit.
if options.only.contains("youll") {
    do {
        log("5/6 Youll home feed: full stack vs bare URLSession POST; cache hit ...")
        let scenario = try await YoullScenario.start()
        let comparison = try await Comparison.run(
            pairs: options.count(600, quick: 150), warmup: options.count(60, quick: 20),
            subject: { try await timed { try await scenario.homeFeedViaStack() }.1 },
            baseline: { try await timed { try await scenario.homeFeedViaURLSession() }.1 }
        )
        let hits = try await sample(iterations: options.count(2000, quick: 400), warmup: 50) { _ in
            try await timed { try await scenario.homeFeedFromCache() }.1
        }
        if options.diagnose {
            notes.append("Youll cache hits by answer (p50 of 500):")
            for (name, hit) in try await scenario.diagnosticHits() {
                let samples = try await sample(iterations: 500, warmup: 20) { _ in try await timed { try await hit() }.1 }
                notes.append("  \(name): \(samples.median.formatted)")
            }
        }
        let bytes = scenario.answerBytes
        await scenario.stop()
        let ratio = comparison.ratioOfMedians
        add(
            Row(
                name: "5 Youll home feed (\(bytes / 1024) KB): full stack ÷ bare URLSession POST",
                subject: "p50 \(comparison.subject.median.formatted), p99 \(comparison.subject.percentile(99).formatted)",
                baseline: "p50 \(comparison.baseline.median.formatted), p99 \(comparison.baseline.percentile(99).formatted)",
                ratio: "\(ratioText(ratio)) (paired \(ratioText(comparison.medianPairedRatio)))",
                goal: "≤ 1.10×", passed: ratio <= 1.1
            ))
        add(
            Row(
                name: "5b Youll home feed, cacheFirst hit",
                subject: "p50 \(hits.median.formatted), p99 \(hits.percentile(99).formatted)",
                baseline: "", ratio: "", goal: "p50 ≤ 0.25 ms", passed: hits.median <= .microseconds(250)
            ))
    } catch {
        log("5 Youll failed: \(error)")
        hadError = true
        add(Row(name: "5 Youll", subject: "FAILED: \(error)", baseline: "", ratio: "", goal: "", passed: false))
    }
}

// 6. The offline backlog: 5 000 events tracked through a day offline, then drained.
if options.only.contains("backlog") {
    do {
        log("6/6 offline backlog: 5 000 events over a day offline, then the drain ...")
        let scenario = try await OfflineBacklogScenario.start()
        let outcome: OfflineBacklogScenario.Outcome
        do {
            outcome = try await scenario.run(events: 5_000, attempts: 20)
        } catch {
            await scenario.stop()
            throw error
        }
        await scenario.stop()
        add(
            Row(
                name: "6 offline backlog: \(outcome.tracked) events after 24 h offline, drained",
                subject: "\(outcome.drainTime.formatted) in \(outcome.drainRequests) requests (\(outcome.drainFlushes) flushes)",
                baseline: "\(outcome.offlineAttempts) attempts offline",
                ratio: outcome.deliveredInOrder ? "all delivered, in order" : "NOT all delivered in order",
                goal: "all delivered, ≤ 100 requests",
                passed: outcome.deliveredInOrder && outcome.drainRequests <= 100
            ))
    } catch {
        log("6 offline backlog failed: \(error)")
        hadError = true
        add(Row(name: "6 offline backlog", subject: "FAILED: \(error)", baseline: "", ratio: "", goal: "", passed: false))
    }
}

// MARK: - Table

let headers = ["benchmark", "subject", "baseline", "ratio", "goal", "result"]
let table = rows.map { row in
    [row.name, row.subject, row.baseline, row.ratio, row.goal, row.passed.map { $0 ? "met" : "missed" } ?? ""]
}
let widths = headers.indices.map { column in
    ([headers[column]] + table.map { $0[column] }).map(\.count).max() ?? 0
}
func line(_ cells: [String]) -> String {
    "| " + zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: " | ") + " |"
}
print("")
print("EngageKit benchmarks (ContinuousClock; subject and baseline interleaved in one run; ratio = median ÷ median)")
print(line(headers))
print("|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|")
table.forEach { print(line($0)) }
notes.forEach { print("note: \($0)") }
print("took \((ContinuousClock.now - started).formatted); load average now \(loadAverage())")

if hadError || (options.strict && rows.contains(where: { $0.passed == false })) {
    exit(1)
}
