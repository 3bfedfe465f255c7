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

/// The scenarios, shared by the harness targets and the `engage-bench-report` ratio reporter.
let supportDependencies: [Target.Dependency] = [
    .product(name: "EngageCore", package: "EngageKit"),
    .product(name: "EngageTesting", package: "EngageKit"),
    .product(name: "EngageSandbox", package: "EngageKit"),
    .product(name: "ReferenceEmulator", package: "EngageKit"),
    .product(name: "EngageExplore", package: "EngageKit"),
    .product(name: "ExploreEmulator", package: "EngageKit"),
    .product(name: "EngageYoull", package: "EngageKit"),
    .product(name: "YoullEmulator", package: "EngageKit"),
    .product(name: "GRDB", package: "GRDB.swift"),
    .product(name: "HTTPTypes", package: "swift-http-types"),
    .product(name: "Logging", package: "swift-log"),
]

let package = Package(
    name: "EngageKitBenchmarks",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [
        // The Development trait: the benchmarks run against the emulators (and it turns every default provider on).
        .package(name: "EngageKit", path: "..", traits: ["Development"]),
        // "MallocInterposer" only: listing traits replaces the harness's defaults, which also turn on
        // "RuntimeInterposer" (Linux + Swift 6.3), a package these builds do not need.
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
        // Already in the graph through EngageKit; declared because the benchmarks import them directly.
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .target(name: "EngageBenchSupport", dependencies: supportDependencies),
        .executableTarget(
            name: "engage-bench-report",
            dependencies: ["EngageBenchSupport"]
        ),
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
            "EngageBenchSupport",
            .product(name: "Benchmark", package: "benchmark"),
        ],
        path: "Benchmarks/\(name)",
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
}

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSwiftSettings
}
