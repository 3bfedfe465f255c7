// swift-tools-version: 6.2
//
// EngageKit: the SDK an app adds. A small core, provider modules chosen by traits, the facade, and two
// test kits (one for apps, one for provider authors). See README.md for trait and product selection and
// CONTRIBUTING.md for adding a provider.
//
// What an app resolves: swift-http-types, swift-log, swift-crypto (with swift-asn1) and GRDB, nothing
// else (the Explore provider inflates its archives with the system zlib). EngageKit's own tooling (the
// sandbox and its web UI, the emulators, the examples, the demo, the benchmark scenarios, the fuzzers
// and the tests) is a sibling package, Development/Package.swift, which depends on this one by path: an
// app's "Add Package" never lists it and its graph never holds its packages. docs/decisions.md says why.
import PackageDescription

// MARK: - Shared settings (applied to every target in one place)

let strictSwiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

// MARK: - Provider catalogue
//
// Each provider's SDK modules live in Providers/<Name>/Sources; its backend's emulator, its tests and its
// example live in the development package (Development/Providers/<Name>/). A provider is listed here once
// it lands: its trait (on by default) is derived from the entry and gates it in the umbrella `Engage`
// product, and it is also its own library product. CI reads the trait list from the manifest
// (`swift package dump-package`); the development package passes the same traits through.

struct ProviderModule {
    /// The trait that compiles the provider into the umbrella product.
    var trait: String
    /// The trait's description.
    var summary: String
    /// Folder under Providers/.
    var folder: String
    /// Extra dependencies of the provider module besides EngageCore.
    var dependencies: [Target.Dependency] = []
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
    ProviderModule(trait: "Crobox", summary: "Crobox promotions: product badges and event tracking.", folder: "Crobox"),
    // Crypto: the loyalty-signature header is a SHA-256 digest.
    ProviderModule(
        trait: "Warply", summary: "Warply loyalty: campaigns, coupons, cards, points, merchants.", folder: "Warply",
        dependencies: [.product(name: "Crypto", package: "swift-crypto")]
    ),
    // Crypto: downloaded directories are verified by SHA-256 (or MD5, as Firebase Storage reports it).
    // CryptoExtras (the same package): the Dash wallet's Firebase Storage archives are WinZip-AES encrypted,
    // whose keys come from PBKDF2-HMAC-SHA1 and whose counter mode needs the raw AES block function.
    // CEngageZlib: the system zlib, which inflates the feed's zip archives (Foundation has no unzip on
    // Linux) with bounds the provider sets itself.
    // Gift cards come from sources behind one protocol (EngageExploreGiftCards): CTX always, PiggyCards
    // only under its trait.
    ProviderModule(
        trait: "Explore", summary: "Dash-style offline merchant directory with CTX gift cards.", folder: "Explore",
        dependencies: [
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "CryptoExtras", package: "swift-crypto"),
            "CEngageZlib",
        ],
        parts: [
            ProviderPart(name: "EngageExploreGiftCards"),
            ProviderPart(name: "EngageExploreCTX", dependencies: ["EngageExploreGiftCards"]),
            ProviderPart(name: "EngageExplorePiggyCards", trait: "PiggyCards", dependencies: ["EngageExploreGiftCards"]),
        ]
    ),
    // Crypto: cache keys are SHA-256 digests.
    ProviderModule(
        trait: "Youll", summary: "Youll content over GraphQL and REST, with the session owned by the host app.", folder: "Youll",
        dependencies: [.product(name: "Crypto", package: "swift-crypto")]
    ),
    // Crypto: the consumer's e-mail is sent as its MD5 (Sovendus' rule), and the banner page's
    // Content-Security-Policy names its inline script by SHA-256.
    ProviderModule(
        trait: "Sovendus", summary: "Sovendus vouchers: a safe banner page for any web view, benefits and coupon redemption.",
        folder: "Sovendus", dependencies: [.product(name: "Crypto", package: "swift-crypto")]
    ),
]

/// Every provider trait: one per catalogue entry (on by default), and PiggyCards, the Explore
/// provider's second gift-card source (off by default).
let providerTraits: Set<Trait> = Set(
    providerModules.map { Trait.trait(name: $0.trait, description: $0.summary) } + [
        .trait(
            name: "PiggyCards", description: "PiggyCards as the Explore provider's second gift-card source.", enabledTraits: ["Explore"]),
        .default(enabledTraits: Set(providerModules.map(\.trait))),
    ]
)

/// Provider modules, each only under its trait (for the umbrella product).
let traitGatedProviders: [Target.Dependency] = providerModules.map { provider in
    .target(name: "Engage\(provider.folder)", condition: .when(traits: [provider.trait]))
}
/// Each provider's SDK module is a library product.
let providerProducts: [Product] = providerModules.map { provider in
    .library(name: "Engage\(provider.folder)", targets: ["Engage\(provider.folder)"])
}
let providerTargets: [Target] = providerModules.flatMap { provider -> [Target] in
    let module = "Engage\(provider.folder)"
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
        )
    ]
}

// MARK: - Package

let package = Package(
    name: "EngageKit",
    // The language of the SDK's own texts (the errors' user messages); German and Greek ship beside it.
    defaultLocalization: "en",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    // What an app's "Add Package" lists, and all it lists: the facade, the core, each provider's module,
    // the test kit for apps, and the test helpers a provider author's package builds against.
    // `.ci/check-app-graph` holds the list.
    products: [
        .library(name: "Engage", targets: ["Engage"]),
        .library(name: "EngageCore", targets: ["EngageCore"]),
        // For apps' previews and unit tests: an `Engage` over in-memory fakes, on the app's surface (no SPI).
        .library(name: "EngageTestKit", targets: ["EngageTestKit"]),
        // For provider authors' tests: a configured context over in-memory storage, a scripted transport.
        .library(name: "EngageTesting", targets: ["EngageTesting"]),
    ] + providerProducts,
    traits: providerTraits,
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
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
    ] + providerTargets
)

for target in package.targets where target.name != "CEngageZlib" {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSwiftSettings
}
