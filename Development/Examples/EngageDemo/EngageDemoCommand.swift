@_spi(EngageProvider) import EngageCore
import ArgumentParser
@_spi(EngageProvider) import Engage
import EngageEmulators
import EngageSandbox
@_spi(EngageProvider) import EngageTesting
import Foundation
import Logging

/// `engage-demo`: starts the sandbox in-process, configures every compiled-in provider against it and
/// walks a realistic scenario per provider, printing a readable report.
///
/// `--reference-url` and the providers' `--<provider>-url` flags point a scenario at an already running
/// backend (for example one served by `engage-sandbox`, or the real service) instead of the embedded one.
@main
struct EngageDemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "engage-demo",
        abstract: "Run every compiled-in EngageKit provider against local backend emulators and report."
    )

    @Option(name: .customLong("reference-url"), help: "Base URL of a running reference backend to use instead of the embedded one.")
    var referenceURL: String?

    @Option(name: .customLong("crobox-url"), help: "Base URL of a Crobox-compatible backend to use instead of the embedded emulator.")
    var croboxURL: String?

    @Option(name: .customLong("crobox-container"), help: "The Crobox container id.")
    var croboxContainer = "xlrc9t"

    @Option(name: .customLong("warply-url"), help: "Base URL of a Warply-compatible backend to use instead of the embedded emulator.")
    var warplyURL: String?

    @Option(name: .customLong("warply-app-uuid"), help: "The Warply application UUID.")
    var warplyAppUUID = "f83dfde1145e4c2da69793abb2f579af"

    @Option(help: "Log level for EngageKit's own logs (trace, debug, info, notice, warning, error, critical).")
    var logLevel: String = "error"

    @Flag(help: "Print the report as JSON instead of text.")
    var json = false

    func validate() throws {
        for (flag, value) in [("--reference-url", referenceURL), ("--crobox-url", croboxURL), ("--warply-url", warplyURL)] {
            if let value, URL(string: value)?.host == nil {
                throw ValidationError("\(flag) must be an absolute http(s) URL.")
            }
        }
        if Logger.Level(rawValue: logLevel) == nil {
            throw ValidationError("--log-level must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
    }

    func run() async throws {
        var report = DemoReport()
        let sandbox = SandboxHost(emulators: BuiltInEmulators.all(), configuration: SandboxConfiguration(logger: Self.quietLogger()))
        let endpoints = try await sandbox.start()
        report.section("Sandbox") {
            $0.line("Serving \(endpoints.emulators.count) emulator(s) on 127.0.0.1:\(endpoints.port)")
            for endpoint in endpoints.emulators { $0.line("\(endpoint.id)  \(endpoint.baseURL.absoluteString)") }
            $0.line("Provider traits compiled in: \(Engage.enabledProviderTraits.joined(separator: ", "))")
        }
        let level = Logger.Level(rawValue: logLevel) ?? .error
        let setup = DemoSetup(
            endpoints: endpoints, overrides: overrides, croboxContainer: croboxContainer, warplyAppUUID: warplyAppUUID, logLevel: level)
        do {
            let engage = try await setup.startEngage()
            let started = await engage.waitUntilReady()
            report.section("Start") {
                $0.line("Started: \(started.started.map(\.rawValue).joined(separator: ", "))")
                for (id, error) in started.failures.sorted(by: { $0.key < $1.key }) { $0.line("Failed: \(id): \(error.message)") }
            }
            let operations = Locked<[String]>([])
            let subscription = engage.events.subscribe(to: OperationEvent.self, on: setup.callbackQueue) { event in
                operations.withLock { $0.append(event.name) }
            }
            for scenario in BuiltInScenarios.all {
                try await scenario.init(engage: engage, sandbox: overrides[scenario.emulatorID] == nil ? sandbox : nil).run(into: &report)
            }
            await engage.shutdown()
            await withCheckedContinuation { continuation in setup.callbackQueue.async { continuation.resume() } }
            subscription.cancel()
            report.section("Operation events published") {
                for name in operations.value { $0.line(name) }
            }
        } catch {
            report.section("Scenario failed") { $0.line("\(error)") }
            await sandbox.stop()
            report.print(asJSON: json)
            throw ExitCode.failure
        }
        await sandbox.stop()
        report.print(asJSON: json)
    }

    var overrides: [String: URL] {
        var overrides: [String: URL] = [:]
        if let referenceURL, let url = URL(string: referenceURL) { overrides["reference"] = url }
        if let croboxURL, let url = URL(string: croboxURL) { overrides["crobox"] = url }
        if let warplyURL, let url = URL(string: warplyURL) { overrides["warply"] = url }
        return overrides
    }

    static func quietLogger() -> Logger {
        var logger = Logger(label: "engage-demo.sandbox")
        logger.logLevel = .error
        return logger
    }
}
