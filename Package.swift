// swift-tools-version: 6.2
//
// EngageKit: one package, a small core, provider modules chosen by traits.
// See README.md for trait and product selection and CONTRIBUTING.md for adding a provider.
//
// What an app resolves: swift-http-types, swift-log, swift-crypto (with swift-asn1) and GRDB, nothing
// else (the Explore provider inflates its archives with the system zlib). Everything else here (the
// sandbox and its web UI, the emulators, the examples, the demo and the tests) builds only with the non-default `Development` trait, and every
// reference to the packages it needs (Hummingbird, NIO, ServiceLifecycle, ArgumentParser, Graphiti,
// GraphQL, ZIPFoundation) is guarded by that trait, so SwiftPM (6.2 and later, hence the tools version) leaves them out
// of an app's graph. CI checks the graph of a consumer fixture; docs/decisions.md says why a trait and
// not a sibling package.
import PackageDescription

// MARK: - Shared settings (applied to every target in one place)

let strictSwiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

// MARK: - Provider catalogue
//
// Each provider lives in Providers/<Name>/: its SDK modules in Sources/, and its backend's emulator, its
// tests and its example (Development trait) in Emulator/, Tests/ and Example/. A provider is listed here
// once it lands: its trait (on by default) is derived from the entry and gates it in the umbrella
// `Engage` product, the `engage-sandbox` executable and `engage-demo`, and it is also its own library
// product. CI reads the trait list from the manifest (`swift package dump-package`).

struct ProviderModule {
    /// The trait that compiles the provider into the umbrella product.
    var trait: String
    /// The trait's description.
    var summary: String
    /// Folder under Providers/.
    var folder: String
    /// The example executable's name, e.g. `crobox-example`.
    var example: String
    /// Extra dependencies of the provider module besides EngageCore.
    var dependencies: [Target.Dependency] = []
    /// Extra dependencies of the emulator besides EngageSandbox and the provider module (tooling packages
    /// among them must be `tooling(…)` references).
    var emulatorDependencies: [Target.Dependency] = []
    /// The provider's other modules, in `Providers/<Folder>/Sources/<name>`, in dependency order.
    var parts: [ProviderPart] = []
}

/// A module of a provider besides `Engage<Folder>`, which depends on it (under `trait`, when set).
struct ProviderPart {
    /// The module's name, e.g. `EngageExploreCTX`.
    var name: String
    /// The trait that compiles it in, when it has one of its own.
    var trait: String? = nil
    /// Its dependencies besides EngageCore, GRDB, HTTPTypes and Logging.
    var dependencies: [Target.Dependency] = []
}

let providerModules: [ProviderModule] = [
    ProviderModule(
        trait: "Crobox", summary: "Crobox promotions: product badges and event tracking.", folder: "Crobox", example: "crobox-example"),
    // Crypto: the loyalty-signature header is a SHA-256 digest (the emulator checks it with its own code).
    ProviderModule(
        trait: "Warply", summary: "Warply loyalty: campaigns, coupons, cards, points, merchants.", folder: "Warply",
        example: "warply-example",
        dependencies: [.product(name: "Crypto", package: "swift-crypto")],
        emulatorDependencies: [.product(name: "Crypto", package: "swift-crypto")]
    ),
    // Crypto: downloaded directories are verified by SHA-256 (or MD5, as Firebase Storage reports it).
    // CryptoExtras (the same package): the Dash wallet's Firebase Storage archives are WinZip-AES encrypted,
    // whose keys come from PBKDF2-HMAC-SHA1 and whose counter mode needs the raw AES block function.
    // CEngageZlib: the system zlib, which inflates the feed's zip archives (Foundation has no unzip on
    // Linux) with bounds the provider sets itself. ZIPFoundation in the emulator only (tooling): it writes
    // the archives the emulator serves. GRDB in the emulator: its generator writes directories.
    // Gift cards come from sources behind one protocol (EngageExploreGiftCards): CTX always, PiggyCards
    // only under its trait.
    ProviderModule(
        trait: "Explore", summary: "Dash-style offline merchant directory with CTX gift cards.", folder: "Explore",
        example: "explore-example",
        dependencies: [
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "CryptoExtras", package: "swift-crypto"),
            "CEngageZlib",
        ],
        emulatorDependencies: [
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "GRDB", package: "GRDB.swift"),
            tooling("ZIPFoundation", package: "ZIPFoundation"),
        ],
        parts: [
            ProviderPart(name: "EngageExploreGiftCards"),
            ProviderPart(name: "EngageExploreCTX", dependencies: ["EngageExploreGiftCards"]),
            ProviderPart(name: "EngageExplorePiggyCards", trait: "PiggyCards", dependencies: ["EngageExploreGiftCards"]),
        ]
    ),
    // Crypto: cache keys are SHA-256 digests. Graphiti and GraphQL in the emulator only: it is a real
    // GraphQL server (schema, validation, introspection), which an app using Youll never builds.
    ProviderModule(
        trait: "Youll", summary: "Youll content over GraphQL and REST, with the session owned by the host app.", folder: "Youll",
        example: "youll-example",
        dependencies: [.product(name: "Crypto", package: "swift-crypto")],
        emulatorDependencies: [
            tooling("Graphiti", package: "Graphiti"),
            tooling("GraphQL", package: "GraphQL"),
        ]
    ),
    // Crypto: the consumer's e-mail is sent as its MD5 (Sovendus' rule), and the banner page's
    // Content-Security-Policy names its inline script by SHA-256.
    ProviderModule(
        trait: "Sovendus", summary: "Sovendus vouchers: a safe banner page for any web view, benefits and coupon redemption.",
        folder: "Sovendus", example: "sovendus-example",
        dependencies: [.product(name: "Crypto", package: "swift-crypto")]
    ),
]

/// Every provider trait: one per catalogue entry (on by default), and PiggyCards, the
/// Explore provider's second gift-card source (off by default). And `Development`, which no app enables.
let providerTraits: Set<Trait> = Set(
    providerModules.map { Trait.trait(name: $0.trait, description: $0.summary) } + [
        .trait(
            name: "PiggyCards", description: "PiggyCards as the Explore provider's second gift-card source.", enabledTraits: ["Explore"]),
        .trait(
            name: "Development",
            description:
                "EngageKit's own tooling: the sandbox, the emulators, the examples, the demo and the tests, with every default provider. Never needed by an app.",
            enabledTraits: Set(providerModules.map(\.trait))
        ),
        .default(enabledTraits: Set(providerModules.map(\.trait))),
    ]
)

/// A product of a package that only the tooling uses (a server, a command line), referenced only under
/// the `Development` trait: SwiftPM leaves a package out of an app's graph when every reference to it
/// is under a trait the app does not enable. Every tooling package is referenced through this.
func tooling(_ product: String, package: String) -> Target.Dependency {
    .product(name: product, package: package, condition: .when(traits: ["Development"]))
}

/// What every emulator imports besides EngageSandbox (which re-exports only the types of its own API).
let emulatorBaseDependencies: [Target.Dependency] = [
    tooling("Hummingbird", package: "hummingbird"),
    .product(name: "HTTPTypes", package: "swift-http-types"),
    tooling("NIOCore", package: "swift-nio"),
    .product(name: "Logging", package: "swift-log"),
]

/// Products the test targets import directly (MemberImportVisibility wants every used module imported).
let testSupportProducts: [Target.Dependency] = [
    "EngageTestTraits",
    .product(name: "HTTPTypes", package: "swift-http-types"),
    .product(name: "Logging", package: "swift-log"),
    .product(name: "GRDB", package: "GRDB.swift"),
    .product(name: "Crypto", package: "swift-crypto"),
]

/// Provider modules, each only under its trait (for the umbrella product).
let traitGatedProviders: [Target.Dependency] = providerModules.map { provider in
    .target(name: "Engage\(provider.folder)", condition: .when(traits: [provider.trait]))
}
/// Provider emulators, each only under its trait (for the sandbox executable and the demo).
let traitGatedEmulators: [Target.Dependency] = providerModules.map { provider in
    .target(name: "\(provider.folder)Emulator", condition: .when(traits: [provider.trait]))
}
/// Each provider's SDK module is a library product (its emulator and example are not: the package an
/// app adds lists only what an app links).
let providerProducts: [Product] = providerModules.map { provider in
    .library(name: "Engage\(provider.folder)", targets: ["Engage\(provider.folder)"])
}
let providerTargets: [Target] = providerModules.flatMap { provider -> [Target] in
    let module = "Engage\(provider.folder)"
    let emulator = "\(provider.folder)Emulator"
    let root = "Providers/\(provider.folder)"
    let coreDependencies: [Target.Dependency] = [
        "EngageCore",
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Logging", package: "swift-log"),
    ]
    let parts: [Target] = provider.parts.map { part in
        .target(name: part.name, dependencies: coreDependencies + part.dependencies, path: "\(root)/Sources/\(part.name)")
    }
    let partDependencies: [Target.Dependency] = provider.parts.map { part in
        guard let trait = part.trait else { return .target(name: part.name) }
        return .target(name: part.name, condition: .when(traits: [trait]))
    }
    return parts + [
        // Every provider module ships Apple's privacy manifest: what it collects and why (docs/app-integration.md).
        .target(
            name: module, dependencies: coreDependencies + provider.dependencies + partDependencies, path: "\(root)/Sources/\(module)",
            resources: [.copy("PrivacyInfo.xcprivacy")]
        ),
        // The emulator serves the wire with types of its own (an independent witness of the recorded answers);
        // it depends on its provider's module for the sandbox's configuration of it.
        .target(
            name: emulator,
            dependencies: ["EngageSandbox", .target(name: module)] + emulatorBaseDependencies + provider.emulatorDependencies,
            path: "\(root)/Emulator/\(emulator)"
        ),
        .testTarget(
            name: "\(module)Tests",
            dependencies: [.target(name: module), .target(name: emulator), "Engage", "EngageSandbox", "EngageTesting"]
                + testSupportProducts,
            path: "\(root)/Tests/\(module)Tests"
        ),
        .executableTarget(
            name: provider.example,
            dependencies: [
                .target(name: module), .target(name: emulator), "EngageSandbox", "EngageExampleSupport",
                tooling("ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "\(root)/Example"
        ),
    ]
}

// MARK: - Package

let package = Package(
    name: "EngageKit",
    // The language of the SDK's own texts (the errors' user messages); German and Greek ship beside it.
    defaultLocalization: "en",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    // What an app's "Add Package" lists: the SDK's modules, the app test kit, the sandbox with the
    // built-in emulators for an app's integration tests, what a provider author's own package builds
    // against (CONTRIBUTING.md), and the benchmark scenarios the separate Benchmarks/ package runs.
    // Each emulator's module, the reference provider, the sandbox's web UI, the sandbox and demo
    // executables and the examples are targets and not products: no other package names them, and
    // `swift run --traits Development <name>` still runs each executable here (SwiftPM makes a product
    // of every executable target of the root package). `.ci/check-app-graph` holds the list.
    products: [
        .library(name: "Engage", targets: ["Engage"]),
        .library(name: "EngageCore", targets: ["EngageCore"]),
        // For apps' previews and unit tests: an `Engage` over in-memory fakes, on the app's surface (no SPI).
        .library(name: "EngageTestKit", targets: ["EngageTestKit"]),
        // For provider authors (Development trait, but for EngageTesting): test helpers, the sandbox host
        // an emulator plugs into, a sandbox tool of their own, and their example's output modes and
        // embedded backend.
        .library(name: "EngageTesting", targets: ["EngageTesting"]),
        .library(name: "EngageSandbox", targets: ["EngageSandbox"]),
        // An app's integration tests: every compiled-in provider's emulator in one product
        // (`BuiltInEmulators`), served by an in-process `SandboxHost`.
        .library(name: "EngageEmulators", targets: ["EngageEmulators"]),
        .library(name: "EngageSandboxCommand", targets: ["EngageSandboxCommand"]),
        .library(name: "EngageExampleSupport", targets: ["EngageExampleSupport"]),
        // The benchmark scenarios, for the separate Benchmarks/ package: here, so that they reach the
        // client stack's `package` types (the middleware) and are compiled with every CI build.
        .library(name: "EngageBenchSupport", targets: ["EngageBenchSupport"]),
    ] + providerProducts,
    traits: providerTraits,
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        // Tooling only (every reference is `tooling(…)`, under the Development trait): the sandbox's HTTP
        // server, the command lines, and the Youll emulator's GraphQL server. NIO and ServiceLifecycle
        // come with Hummingbird; declared because EngageSandbox imports them directly.
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
            name: "EngageCore",
            dependencies: [
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            // Apple's privacy manifest: the required-reason APIs the module uses (see docs/app-integration.md),
            // and the texts a user may be shown for an error, one table per language (Resources/*.lproj).
            resources: [.copy("PrivacyInfo.xcprivacy"), .process("Resources")]
        ),
        .target(
            name: "Engage",
            dependencies: ["EngageCore"] + traitGatedProviders
        ),
        // The system zlib for the Explore provider's inflater: a header and the `z` library, which every
        // supported platform ships (Debian: zlib1g-dev), so no package is added to an app's graph.
        .target(
            name: "CEngageZlib",
            path: "Providers/Explore/Sources/CEngageZlib",
            linkerSettings: [.linkedLibrary("z")]
        ),
        .target(name: "EngageTestKit", dependencies: ["Engage", "EngageCore"]),
        .target(
            name: "EngageTesting",
            dependencies: [
                "EngageCore",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "EngageSandbox",
            dependencies: [
                "EngageCore",
                "EngageTesting",
                tooling("Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                tooling("NIOCore", package: "swift-nio"),
                tooling("ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Development/Sources/EngageSandbox"
        ),
        // The sandbox's web UI (served by engage-sandbox beside the emulators): static files as resources,
        // no build step. Only sandbox tools depend on it; no SDK module does.
        .target(
            name: "EngageSandboxUI",
            dependencies: [
                "EngageCore",
                "EngageSandbox",
                tooling("Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                tooling("NIOCore", package: "swift-nio"),
            ],
            path: "Development/Sources/EngageSandboxUI",
            resources: [.copy("Assets")]
        ),
        .target(
            name: "EngageReference",
            dependencies: [
                "EngageCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Providers/Reference/Sources/EngageReference"
        ),
        .target(
            name: "ReferenceEmulator",
            dependencies: ["EngageSandbox"] + emulatorBaseDependencies,
            path: "Providers/Reference/Emulator/ReferenceEmulator"
        ),
        .testTarget(
            name: "EngageReferenceTests",
            dependencies: ["EngageReference", "ReferenceEmulator", "EngageSandbox", "EngageTesting"] + testSupportProducts,
            path: "Providers/Reference/Tests/EngageReferenceTests"
        ),
        .target(
            name: "EngageEmulators",
            dependencies: ["EngageCore", "EngageSandbox", "ReferenceEmulator"] + traitGatedEmulators,
            path: "Development/Sources/EngageEmulators"
        ),
        // The options and serving loop of a sandbox tool; `engage-sandbox` is one, a third party's is another.
        .target(
            name: "EngageSandboxCommand",
            dependencies: ["EngageSandbox", "EngageSandboxUI", tooling("ArgumentParser", package: "swift-argument-parser")],
            path: "Development/Sources/EngageSandboxCommand"
        ),
        .executableTarget(
            name: "engage-sandbox",
            dependencies: [
                "EngageCore",
                "EngageSandbox",
                "EngageSandboxCommand",
                "EngageEmulators",
                tooling("ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Development/Sources/EngageSandboxTool"
        ),
        .executableTarget(
            name: "engage-demo",
            dependencies: [
                "Engage",
                "EngageReference",
                "EngageSandbox",
                "EngageEmulators",
                "EngageTesting",
                tooling("ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/EngageDemo"
        ),
        // The app side of the kill-and-restart tests (Tests/EngageTests/KillAndRestartTests.swift): one
        // launch of an app that the tests kill with SIGKILL in the middle of its work.
        .executableTarget(
            name: "engage-restart-child",
            dependencies: ["EngageCore", "EngageReference", "EngageExplore"],
            path: "Development/Sources/EngageRestartChild"
        ),
        // Fuzzing (Fuzz/README.md): the parsers of untrusted bytes as functions of arbitrary bytes, the
        // libFuzzer binary that runs one of them (built with -sanitize=fuzzer,address -DENGAGE_LIBFUZZER;
        // built plainly it replays inputs), and the replay of the checked-in corpus in every test run.
        .target(
            name: "EngageFuzzTargets",
            dependencies: [
                "Engage", "EngageCore", "EngageCrobox", "EngageExplore", "EngageSovendus", "EngageWarply", "EngageYoull",
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Fuzz/EngageFuzzTargets"
        ),
        .executableTarget(name: "engage-fuzz", dependencies: ["EngageFuzzTargets"], path: "Fuzz/engage-fuzz"),
        .testTarget(name: "EngageFuzzTests", dependencies: ["EngageFuzzTargets"] + testSupportProducts, path: "Fuzz/Tests/EngageFuzzTests"),
        // Photographs the sandbox UI in headless Chromium for the docs (Scripts/sandbox-screenshot).
        .executableTarget(
            name: "engage-screenshot",
            dependencies: ["EngageCore", "EngageTesting"],
            path: "Development/Sources/EngageScreenshot"
        ),
        // What every provider example shares: its output modes and the embedded-emulator backend.
        .target(
            name: "EngageExampleSupport",
            dependencies: ["EngageCore", "EngageSandbox", .product(name: "Logging", package: "swift-log")],
            path: "Development/Sources/EngageExampleSupport"
        ),
        .target(
            name: "EngageBenchSupport",
            dependencies: [
                "EngageCore", "EngageTesting", "EngageSandbox", "EngageReference", "ReferenceEmulator", "EngageExplore", "ExploreEmulator",
                "EngageYoull", "YoullEmulator", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HTTPTypes", package: "swift-http-types"), .product(name: "Logging", package: "swift-log"),
            ],
            path: "Development/Sources/EngageBenchSupport"
        ),
        // An app's tests: the test kit through the app's surface only (no SPI import).
        .testTarget(name: "EngageTestKitTests", dependencies: ["EngageTestKit", "Engage"] + testSupportProducts),
        .testTarget(
            name: "EngageCoreTests",
            dependencies: ["EngageCore", "EngageTesting"] + testSupportProducts
        ),
        .testTarget(
            name: "EngageTests",
            dependencies: [
                "Engage", "EngageReference", "ReferenceEmulator", "EngageTesting", "EngageSandbox", "EngageExplore", "ExploreEmulator",
                "EngageCrobox", "CroboxEmulator",
            ]
                + testSupportProducts
        ),
        // The bounds every test of the package runs within (a share of the machine, a deadline that
        // names a hung test): a module of its own, which only test targets link (it imports Testing).
        .target(name: "EngageTestTraits", dependencies: ["EngageCore"], path: "Tests/EngageTestTraits"),
        .testTarget(
            name: "EngageSandboxTests",
            dependencies: ["EngageSandbox", "ReferenceEmulator", "EngageCore", "EngageTesting", "EngageTestTraits"],
            path: "Development/Tests/EngageSandboxTests"
        ),
        .testTarget(
            name: "EngageSandboxUITests",
            dependencies: [
                "EngageSandboxUI", "EngageSandbox", "ReferenceEmulator", "CroboxEmulator", "EngageCore", "EngageTesting",
                "EngageTestTraits",
            ],
            path: "Development/Tests/EngageSandboxUITests"
        ),
    ] + providerTargets
)

for target in package.targets where target.name != "CEngageZlib" {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSwiftSettings
}
