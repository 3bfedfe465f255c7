// swift-tools-version: 6.1
//
// EngageKit performance benchmarks: a separate package so that the root package never depends on the
// benchmark harness. See README.md in this directory for the commands and the goals.
import PackageDescription

let strictSwiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "EngageKitBenchmarks",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [
        // EngageKit's development package: the scenarios run against its emulators, with every default provider.
        .package(name: "EngageKitDevelopment", path: "../Development"),
        // "MallocInterposer" only: listing traits replaces the harness's defaults, which also turn on
        // "RuntimeInterposer" (Linux + Swift 6.3), a package these builds do not need.
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The scenarios live in the development package (Development/Sources/EngageBenchSupport), built
        // with every test run there; the harness targets and the ratio reporter run them.
        .executableTarget(
            name: "engage-bench-report",
            dependencies: [.product(name: "EngageBenchSupport", package: "EngageKitDevelopment")]
        )
    ]
)

/// One harness target per benchmark suite, in Benchmarks/<Name>/ (where the harness's plugin finds them).
let benchmarkSuites = [
    "ClientStackBenchmarks",
    "RefreshStormBenchmarks",
    "DurableQueueBenchmarks",
    "RegistryStartBenchmarks",
    "ExploreBenchmarks",
]
package.targets += benchmarkSuites.map { name in
    .executableTarget(
        name: name,
        dependencies: [
            .product(name: "EngageBenchSupport", package: "EngageKitDevelopment"),
            .product(name: "Benchmark", package: "benchmark"),
        ],
        path: "Benchmarks/\(name)",
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
}

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSwiftSettings
}
