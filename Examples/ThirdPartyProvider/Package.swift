// swift-tools-version: 6.2
//
// A provider written outside EngageKit, the way CONTRIBUTING.md describes: its own package, depending
// on EngageKit's public products only. "Acme" is a small offers backend with API-key (bearer) auth.
// CI builds this package and runs its tests: `swift build --traits Development --build-tests`.
//
// An app that adds this package resolves what EngageKit's SDK imports and nothing else: the emulator,
// the example, the sandbox tool and the tests need EngageKit's development package (its sandbox, on
// Hummingbird) and ArgumentParser, so they build only under this package's own `Development` trait,
// and every reference to a tooling package is guarded by it.
import PackageDescription

/// A product only the tooling uses: referenced under the Development trait, so apps never resolve its package.
func tooling(_ product: String, package: String) -> Target.Dependency {
    .product(name: product, package: package, condition: .when(traits: ["Development"]))
}

let package = Package(
    name: "AcmeOffers",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "AcmeOffers", targets: ["AcmeOffers"]),
        .library(name: "AcmeEmulator", targets: ["AcmeEmulator"]),
        .executable(name: "acme-example", targets: ["acme-example"]),
        .executable(name: "acme-sandbox", targets: ["acme-sandbox"]),
    ],
    traits: [
        .trait(name: "Development", description: "The emulator, the example, the sandbox tool and the tests (EngageKit's sandbox).")
    ],
    dependencies: [
        // No built-in provider is needed: the default traits are off. A published provider would depend
        // on a release: .package(url: "https://github.com/engagekit/engagekit.git", from: "1.0.0", traits: [])
        .package(name: "EngageKit", path: "../..", traits: []),
        // EngageKit's development package: the sandbox host, a sandbox tool's command and an example's
        // output modes. It lives in the SDK's repository (Development/), so a package outside it names it
        // by path, from a checkout of that repository (CONTRIBUTING.md, "A provider in its own package").
        // No built-in emulator is needed here either.
        .package(name: "EngageKitDevelopment", path: "../../Development", traits: []),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    ],
    targets: [
        // The provider: what an app links. `Engage` for the facade extension (`engage.deals()`).
        .target(
            name: "AcmeOffers",
            dependencies: [.product(name: "Engage", package: "EngageKit")]
        ),
        // The backend's emulator, for tests and the example: never linked into an app.
        .target(
            name: "AcmeEmulator",
            dependencies: [tooling("EngageSandbox", package: "EngageKitDevelopment"), .product(name: "EngageCore", package: "EngageKit")]
        ),
        // Runs against the embedded emulator, or any Acme backend given with --base-url.
        .executableTarget(
            name: "acme-example",
            dependencies: [
                "AcmeOffers", "AcmeEmulator",
                tooling("EngageExampleSupport", package: "EngageKitDevelopment"),
                tooling("ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Serves the Acme emulator on loopback, like `engage-sandbox` serves EngageKit's.
        .executableTarget(
            name: "acme-sandbox",
            dependencies: [
                "AcmeEmulator",
                tooling("EngageSandboxCommand", package: "EngageKitDevelopment"),
                tooling("ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "AcmeOffersTests",
            dependencies: [
                "AcmeOffers", "AcmeEmulator",
                .product(name: "EngageTesting", package: "EngageKit"),
                tooling("EngageSandbox", package: "EngageKitDevelopment"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")]
}
