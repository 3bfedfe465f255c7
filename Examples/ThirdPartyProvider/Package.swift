// swift-tools-version: 6.1
//
// A provider written outside EngageKit, the way CONTRIBUTING.md describes: its own package, depending
// on EngageKit's public products only. "Acme" is a small offers backend with API-key (bearer) auth.
// CI builds this package and runs its tests.
import PackageDescription

let package = Package(
    name: "AcmeOffers",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "AcmeOffers", targets: ["AcmeOffers"]),
        .library(name: "AcmeEmulator", targets: ["AcmeEmulator"]),
        .executable(name: "acme-example", targets: ["acme-example"]),
        .executable(name: "acme-sandbox", targets: ["acme-sandbox"]),
    ],
    dependencies: [
        // No built-in provider is needed: the default traits are off. An app would depend on a release:
        // .package(url: "https://github.com/engagekit/engagekit.git", from: "1.0.0", traits: [])
        .package(name: "EngageKit", path: "../..", traits: []),
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
            dependencies: [.product(name: "EngageSandbox", package: "EngageKit"), .product(name: "EngageCore", package: "EngageKit")]
        ),
        // Runs against the embedded emulator, or any Acme backend given with --base-url.
        .executableTarget(
            name: "acme-example",
            dependencies: [
                "AcmeOffers", "AcmeEmulator",
                .product(name: "EngageExampleSupport", package: "EngageKit"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Serves the Acme emulator on loopback, like `engage-sandbox` serves EngageKit's.
        .executableTarget(
            name: "acme-sandbox",
            dependencies: [
                "AcmeEmulator",
                .product(name: "EngageSandboxCommand", package: "EngageKit"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "AcmeOffersTests",
            dependencies: [
                "AcmeOffers", "AcmeEmulator",
                .product(name: "EngageTesting", package: "EngageKit"),
                .product(name: "EngageSandbox", package: "EngageKit"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")]
}
