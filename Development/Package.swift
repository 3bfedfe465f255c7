// swift-tools-version: 6.2
//
// EngageKit's development package: everything the SDK is built and proved with, beside the SDK's own
// package (../Package.swift), on which it depends by path. The sandbox and its web UI, every provider's
// emulator, tests and example, the reference provider, the demo, the snippets the docs show, the fuzzers,
// the screenshot tool and the benchmark scenarios. An app adds only the SDK's package, so none of this, or
// of the packages it needs (Hummingbird, NIO, ServiceLifecycle, ArgumentParser, Graphiti, GraphQL,
// ZIPFoundation), is in an app's product list or graph. docs/decisions.md says why a sibling package.
//
// From the repository's root (README.md, "Contributing"):
//
//     swift build --package-path Development --build-tests && swift test --package-path Development --skip-build
//     swift run --package-path Development engage-sandbox
import PackageDescription

let strictSwiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

// MARK: - Providers

/// A built-in provider's development targets: its emulator, its tests and its example, in
/// Providers/<folder>/ here (its SDK modules are in the SDK's package, Providers/<folder>/Sources).
struct ProviderTooling {
    /// The provider's trait in the SDK's package (passed through: on by default here too).
    var trait: String
    /// The trait's description.
    var summary: String
    /// Folder under Providers/, here and in the SDK's package.
    var folder: String
    /// The example executable's name, e.g. `crobox-example`.
    var example: String
    /// Extra dependencies of the emulator besides EngageSandbox and the provider's module.
    var emulatorDependencies: [Target.Dependency] = []
}

let providers: [ProviderTooling] = [
    ProviderTooling(
        trait: "Crobox", summary: "Crobox's emulator, tests and example.", folder: "Crobox", example: "crobox-example"),
    // Crypto: the emulator checks the loyalty-signature header with its own SHA-256.
    ProviderTooling(
        trait: "Warply", summary: "Warply's emulator, tests and example.", folder: "Warply", example: "warply-example",
        emulatorDependencies: [.product(name: "Crypto", package: "swift-crypto")]
    ),
    // Crypto and CryptoExtras: the feed's digests and its WinZip-AES archives (the emulator's own writer).
    // GRDB: the generator writes directories. ZIPFoundation: the archives the feed serves.
    ProviderTooling(
        trait: "Explore", summary: "Explore's emulators (the feed, CTX, PiggyCards), tests and example.", folder: "Explore",
        example: "explore-example",
        emulatorDependencies: [
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "CryptoExtras", package: "swift-crypto"),
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "ZIPFoundation", package: "ZIPFoundation"),
        ]
    ),
    // Graphiti and GraphQL: the emulator is a real GraphQL server (schema, validation, introspection).
    ProviderTooling(
        trait: "Youll", summary: "Youll's emulator, tests and example.", folder: "Youll", example: "youll-example",
        emulatorDependencies: [
            .product(name: "Graphiti", package: "Graphiti"),
            .product(name: "GraphQL", package: "GraphQL"),
        ]
    ),
    ProviderTooling(
        trait: "Sovendus", summary: "Sovendus' emulator, tests and example.", folder: "Sovendus", example: "sovendus-example"),
]

/// The SDK's traits, passed through: each provider's (on by default, as in the SDK) and PiggyCards.
let traits: Set<Trait> = Set(
    providers.map { Trait.trait(name: $0.trait, description: $0.summary) } + [
        .trait(
            name: "PiggyCards", description: "The Explore provider's PiggyCards source, its emulator and tests.", enabledTraits: ["Explore"]
        ),
        .default(enabledTraits: Set(providers.map(\.trait))),
    ]
)

/// A product of the SDK's package.
func sdk(_ product: String) -> Target.Dependency {
    .product(name: product, package: "EngageKit")
}

/// What every emulator imports besides EngageSandbox (which re-exports only the types of its own API).
let emulatorBaseDependencies: [Target.Dependency] = [
    .product(name: "Hummingbird", package: "hummingbird"),
    .product(name: "HTTPTypes", package: "swift-http-types"),
    .product(name: "NIOCore", package: "swift-nio"),
    .product(name: "Logging", package: "swift-log"),
]

/// Products the test targets import directly (MemberImportVisibility wants every used module imported).
let testSupportProducts: [Target.Dependency] = [
    "EngageTestTraits",
    sdk("EngageTesting"),
    .product(name: "HTTPTypes", package: "swift-http-types"),
    .product(name: "Logging", package: "swift-log"),
    .product(name: "GRDB", package: "GRDB.swift"),
    .product(name: "Crypto", package: "swift-crypto"),
]

/// Provider emulators, each only under its trait (for the sandbox executable and the demo).
let traitGatedEmulators: [Target.Dependency] = providers.map { provider in
    .target(name: "\(provider.folder)Emulator", condition: .when(traits: [provider.trait]))
}

let traitGatedProviderModules: [Target.Dependency] = providers.map { provider in
    .product(name: "Engage\(provider.folder)", package: "EngageKit", condition: .when(traits: [provider.trait]))
}

let providerTargets: [Target] = providers.flatMap { provider -> [Target] in
    let module = "Engage\(provider.folder)"
    let emulator = "\(provider.folder)Emulator"
    let root = "Providers/\(provider.folder)"
    return [
        // The emulator serves the wire with types of its own (an independent witness of the recorded
        // answers); it imports its provider's module for the sandbox's configuration of it, public API only.
        .target(
            name: emulator,
            dependencies: ["EngageSandbox", sdk("EngageCore")] + emulatorBaseDependencies + provider.emulatorDependencies,
            path: "\(root)/Emulator/\(emulator)"
        ),
        .testTarget(
            name: "\(module)Tests",
            dependencies: [sdk(module), .target(name: emulator), sdk("Engage"), sdk("EngageCore"), "EngageSandbox", "EngageEmulators"]
                + testSupportProducts,
            path: "\(root)/Tests/\(module)Tests"
        ),
        .executableTarget(
            name: provider.example,
            dependencies: [
                sdk(module), sdk("EngageCore"), .target(name: emulator), "EngageSandbox", "EngageExampleSupport", "EngageEmulators",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "\(root)/Example"
        ),
    ]
}

// MARK: - Package

let package = Package(
    name: "EngageKitDevelopment",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    // What other packages of this repository build against: the sandbox host an emulator plugs into, a
    // sandbox tool of one's own, an example's output modes and embedded backend (Examples/ThirdPartyProvider),
    // the built-in emulators for integration tests, and the benchmark scenarios (Benchmarks/).
    products: [
        .library(name: "EngageSandbox", targets: ["EngageSandbox"]),
        .library(name: "EngageEmulators", targets: ["EngageEmulators"]),
        .library(name: "EngageSandboxCommand", targets: ["EngageSandboxCommand"]),
        .library(name: "EngageExampleSupport", targets: ["EngageExampleSupport"]),
        .library(name: "EngageBenchSupport", targets: ["EngageBenchSupport"]),
        // For this package's snippets only (see the target).
        .library(name: "EngageSnippets", targets: ["EngageSnippets"]),
    ],
    traits: traits,
    dependencies: [
        .package(
            name: "EngageKit", path: "..",
            traits: Set(
                providers.map { .trait(name: $0.trait, condition: .when(traits: [$0.trait])) } + [
                    .trait(name: "PiggyCards", condition: .when(traits: ["PiggyCards"]))
                ]
            )
        ),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        // The sandbox's HTTP server, the command lines, the Explore feed's archives and the Youll
        // emulator's GraphQL server. NIO and ServiceLifecycle come with Hummingbird; declared because
        // EngageSandbox imports them directly.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", from: "0.9.20"),
        .package(url: "https://github.com/GraphQLSwift/Graphiti.git", from: "3.1.0"),
        .package(url: "https://github.com/GraphQLSwift/GraphQL.git", from: "4.3.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        .target(
            name: "EngageSandbox",
            dependencies: [
                sdk("EngageCore"),
                sdk("EngageTesting"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The sandbox's web UI (served by engage-sandbox beside the emulators): static files as resources,
        // no build step. Only sandbox tools depend on it.
        .target(
            name: "EngageSandboxUI",
            dependencies: [
                sdk("EngageCore"),
                "EngageSandbox",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            resources: [.copy("Assets")]
        ),
        // A provider of the smallest backend, which the core's end-to-end tests, the demo and the
        // benchmarks drive (and the template CONTRIBUTING.md points to).
        .target(
            name: "EngageReference",
            dependencies: [
                sdk("EngageCore"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Providers/Reference/Sources/EngageReference"
        ),
        .target(
            name: "ReferenceEmulator",
            dependencies: ["EngageSandbox", sdk("EngageCore")] + emulatorBaseDependencies,
            path: "Providers/Reference/Emulator/ReferenceEmulator"
        ),
        .testTarget(
            name: "EngageReferenceTests",
            dependencies: ["EngageReference", "ReferenceEmulator", "EngageSandbox", sdk("EngageCore")] + testSupportProducts,
            path: "Providers/Reference/Tests/EngageReferenceTests"
        ),
        .target(
            name: "EngageEmulators",
            // The provider modules too: the sandbox sets here write each provider's configuration
            // section, which an emulator never does (it does not import its client).
            dependencies: [sdk("EngageCore"), "EngageSandbox", "ReferenceEmulator"] + traitGatedEmulators + traitGatedProviderModules
        ),
        // What the snippets link (Snippets/: the DocC articles' code, and the docs' code blocks that
        // .ci/check-doc-code compiles there): SwiftPM links a snippet with this package's library
        // products only, so this one brings every product of the SDK's package. It has no code.
        .target(
            name: "EngageSnippets",
            dependencies: [
                sdk("Engage"), sdk("EngageCore"), sdk("EngageTestKit"), sdk("EngageTesting"), "EngageEmulators", "EngageSandbox",
                "EngageSandboxUI",
            ]
        ),
        // The options and serving loop of a sandbox tool; `engage-sandbox` is one, a third party's is another.
        .target(
            name: "EngageSandboxCommand",
            dependencies: ["EngageSandbox", "EngageSandboxUI", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "engage-sandbox",
            dependencies: [
                sdk("EngageCore"),
                "EngageSandbox",
                "EngageSandboxCommand",
                "EngageEmulators",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/EngageSandboxTool"
        ),
        .executableTarget(
            name: "engage-demo",
            dependencies: [
                sdk("Engage"),
                sdk("EngageCore"),
                sdk("EngageTesting"),
                "EngageReference",
                "EngageSandbox",
                "EngageEmulators",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/EngageDemo"
        ),
        // The app side of the kill-and-restart tests (Tests/EngageTests/KillAndRestartTests.swift): one
        // launch of an app that the tests kill with SIGKILL in the middle of its work.
        .executableTarget(
            name: "engage-restart-child",
            dependencies: [sdk("EngageCore"), "EngageReference", sdk("EngageExplore")],
            path: "Sources/EngageRestartChild"
        ),
        // Fuzzing (Fuzz/README.md): the parsers of untrusted bytes as functions of arbitrary bytes, the
        // libFuzzer binary that runs one of them (built with -sanitize=fuzzer,address -DENGAGE_LIBFUZZER;
        // built plainly it replays inputs), and the replay of the checked-in corpus in every test run.
        // The targets reach the parsers' `package` entry points with `@testable import`, which a debug
        // build (the only one fuzzing uses) allows.
        .target(
            name: "EngageFuzzTargets",
            dependencies: [
                sdk("Engage"), sdk("EngageCore"), sdk("EngageCrobox"), sdk("EngageExplore"), sdk("EngageSovendus"), sdk("EngageWarply"),
                sdk("EngageYoull"), .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"), .product(name: "Logging", package: "swift-log"),
            ],
            path: "Fuzz/EngageFuzzTargets"
        ),
        .executableTarget(name: "engage-fuzz", dependencies: ["EngageFuzzTargets"], path: "Fuzz/engage-fuzz"),
        .testTarget(name: "EngageFuzzTests", dependencies: ["EngageFuzzTargets"] + testSupportProducts, path: "Fuzz/Tests/EngageFuzzTests"),
        // Photographs the sandbox UI in headless Chromium for the docs (Scripts/sandbox-screenshot).
        .executableTarget(
            name: "engage-screenshot",
            dependencies: [sdk("EngageCore"), sdk("EngageTesting")],
            path: "Sources/EngageScreenshot"
        ),
        // What every provider example shares: its output modes and the embedded-emulator backend.
        .target(
            name: "EngageExampleSupport",
            dependencies: [sdk("EngageCore"), "EngageSandbox", .product(name: "Logging", package: "swift-log")]
        ),
        // The benchmark scenarios, for the separate Benchmarks/ package, compiled with every build here.
        .target(
            name: "EngageBenchSupport",
            dependencies: [
                sdk("EngageCore"), sdk("EngageTesting"), "EngageSandbox", "EngageReference", "ReferenceEmulator", sdk("EngageExplore"),
                "ExploreEmulator", sdk("EngageYoull"), "YoullEmulator", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // An app's tests: the test kit through the app's surface only (no SPI import, no `@testable`).
        .testTarget(name: "EngageTestKitTests", dependencies: [sdk("EngageTestKit"), sdk("Engage")] + testSupportProducts),
        .testTarget(
            name: "EngageCoreTests",
            dependencies: [sdk("EngageCore")] + testSupportProducts
        ),
        .testTarget(
            name: "EngageTests",
            dependencies: [
                sdk("Engage"), sdk("EngageCore"), "EngageReference", "ReferenceEmulator", "EngageSandbox", sdk("EngageExplore"),
                "ExploreEmulator", sdk("EngageCrobox"), "CroboxEmulator",
            ]
                + testSupportProducts
        ),
        // The bounds every test of the package runs within (a share of the machine, a deadline that
        // names a hung test): a module of its own, which only test targets link (it imports Testing).
        .target(name: "EngageTestTraits", dependencies: [sdk("EngageCore")], path: "Tests/EngageTestTraits"),
        .testTarget(
            name: "EngageSandboxTests",
            dependencies: ["EngageSandbox", "ReferenceEmulator", sdk("EngageCore")] + testSupportProducts
        ),
        .testTarget(
            name: "EngageSandboxUITests",
            dependencies: ["EngageSandboxUI", "EngageSandbox", "ReferenceEmulator", "CroboxEmulator", sdk("EngageCore")]
                + testSupportProducts
        ),
    ] + providerTargets
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSwiftSettings
}
