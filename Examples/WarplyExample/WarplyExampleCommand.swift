import ArgumentParser
import EngageCore
import EngageSandbox
import EngageWarply
import Foundation
import Logging
import WarplyEmulator

/// `warply-example`: a loyalty member's tour of Warply.
///
/// It initializes (registers the device), logs in with an email, lists campaigns and coupons,
/// redeems one coupon, shows the profile, adds and lists a card (masked) and prints the points
/// history. By default it starts the Warply emulator in-process; `--base-url` points it at any
/// Warply-compatible backend instead.
@main
struct WarplyExampleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "warply-example",
        abstract: "Log in to Warply, list campaigns and coupons, redeem one, and show profile, cards and points."
    )

    @Option(name: .customLong("base-url"), help: "A Warply-compatible backend (default: the embedded emulator).")
    var baseURL: String?

    @Option(name: .customLong("app-uuid"), help: "The Warply application UUID.")
    var appUUID = "f83dfde1145e4c2da69793abb2f579af"

    @Option(name: .customLong("email"), help: "The email to log in with (DEI login).")
    var email = "maria@example.gr"

    @Option(name: .customLong("language"), help: "el or en.")
    var language = "en"

    @Flag(help: "Print the campaigns and coupons as JSON on standard output (narration goes to standard error).")
    var json = false

    func validate() throws {
        if let baseURL, URL(string: baseURL)?.host == nil {
            throw ValidationError("--base-url must be an absolute http(s) URL.")
        }
        guard WarplyLanguage(rawValue: language) != nil else { throw ValidationError("--language must be el or en.") }
    }

    func run() async throws {
        let output = ExampleOutput(json: json)
        var sandbox: SandboxHost?
        let backend: URL
        if let baseURL, let url = URL(string: baseURL) {
            backend = url
        } else {
            let emulator = WarplyEmulator()
            let host = SandboxHost(emulators: [emulator], configuration: SandboxConfiguration(logger: Self.quietLogger()))
            guard let url = try await host.start().baseURL(for: emulator.id) else { throw ValidationError("The emulator did not start.") }
            sandbox = host
            backend = url
            output.line("Warply emulator at \(url.absoluteString)")
        }

        let scenario = try await WarplyExampleScenario(baseURL: backend, appUUID: appUUID, language: WarplyLanguage(rawValue: language) ?? .english)
        do {
            try await scenario.run(email: email, output: output)
        } catch let error as EngageError {
            output.line("✗ \(error.description)")
            if let suggestion = error.recoverySuggestion { output.line("  \(suggestion)") }
            await scenario.shutdown()
            await sandbox?.stop()
            throw ExitCode.failure
        }
        await scenario.shutdown()
        await sandbox?.stop()
    }

    static func quietLogger() -> Logger {
        var logger = Logger(label: "warply-example")
        logger.logLevel = .error
        return logger
    }
}
