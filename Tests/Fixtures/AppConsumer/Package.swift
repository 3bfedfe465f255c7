// swift-tools-version: 6.1
//
// A test app that uses EngageKit the way the README and docs/app-integration.md tell an app to: the
// default traits, `import Engage` only (no SPI), `Engage.configure(with:)`, `Engage.isConfigured`,
// `waitUntilReady()`, `Engage.version`, `logIn`, `track`, `screen`, `setPushToken`, `handle`, `offers`,
// `engage.state`, an error's `localizedDescription` and `(error as NSError).code`, and the app test kit
// (`EngageTestKit`'s `EngageFake`).
// CI runs it against `engage-sandbox` (ENGAGE_CONFIGURATION names the sandbox's configuration file).
import PackageDescription

let package = Package(
    name: "AppConsumer",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [
        .package(name: "EngageKit", path: "../../..")
    ],
    targets: [
        .executableTarget(
            name: "AppConsumer",
            dependencies: [
                .product(name: "Engage", package: "EngageKit"), .product(name: "EngageTestKit", package: "EngageKit"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
