// swift-tools-version: 6.1
//
// A consumer app that enables only the Crobox provider trait of EngageKit. CI builds it and checks
// that no other provider module (and no emulator or server code) was compiled.
import PackageDescription

let package = Package(
    name: "CroboxConsumer",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [
        .package(name: "EngageKit", path: "../../..", traits: ["Crobox"])
    ],
    targets: [
        .executableTarget(
            name: "CroboxConsumer",
            dependencies: [.product(name: "Engage", package: "EngageKit")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
