import ArgumentParser
import Engage
import EngageEmulators
import EngageSandbox
import EngageTesting
import Foundation
import Logging

/// `engage-demo`: starts the sandbox in-process, configures every compiled-in provider against it and
/// walks a realistic scenario per provider, printing a readable report.
///
/// `--reference-url` points the core scenario at an already running backend (for example one served by
/// `engage-sandbox`) instead of the embedded one.
@main
struct EngageDemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "engage-demo",
        abstract: "Run every compiled-in EngageKit provider against local backend emulators and report."
    )

    @Option(name: .customLong("reference-url"), help: "Base URL of a running reference backend to use instead of the embedded one.")
    var referenceURL: String?

    @Option(help: "Log level for EngageKit's own logs (trace, debug, info, notice, warning, error, critical).")
    var logLevel: String = "error"

    @Flag(help: "Print the report as JSON instead of text.")
    var json = false

    func validate() throws {
        if let referenceURL, URL(string: referenceURL)?.host == nil {
            throw ValidationError("--reference-url must be an absolute http(s) URL.")
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
        let referenceBase = try referenceURL.flatMap(URL.init(string:)) ?? require(endpoints.baseURL(for: "reference"), "the sandbox serves no reference backend")
        do {
            try await ReferenceScenario(baseURL: referenceBase, sandbox: referenceURL == nil ? sandbox : nil, logLevel: Logger.Level(rawValue: logLevel) ?? .error)
                .run(into: &report)
        } catch {
            report.section("Core scenario failed") { $0.line("\(error)") }
            await sandbox.stop()
            report.print(asJSON: json)
            throw ExitCode.failure
        }
        await sandbox.stop()
        report.print(asJSON: json)
    }

    static func quietLogger() -> Logger {
        var logger = Logger(label: "engage-demo.sandbox")
        logger.logLevel = .error
        return logger
    }
}

/// `#require` for a command: throws a readable error instead of trapping.
func require<Value>(_ value: Value?, _ message: @autoclosure () -> String = "missing value") throws -> Value {
    guard let value else { throw ValidationError(message()) }
    return value
}
