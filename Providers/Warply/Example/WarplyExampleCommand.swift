import ArgumentParser
@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExampleSupport
import EngageWarply
import Foundation
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

    @Option(name: .customLong("storage"), help: ArgumentHelp(stringLiteral: ExampleStorage.optionHelp))
    var storage: String?

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
        let backend = try await ExampleBackend.resolve(baseURL: baseURL, emulator: WarplyEmulator(), output: output)
        let storage = ExampleStorage.resolve(self.storage, appID: WarplyExampleScenario.appID, realBackend: baseURL != nil)
        output.line(storage.summary)
        let scenario = try await WarplyExampleScenario(
            baseURL: backend.baseURL, appUUID: appUUID, language: WarplyLanguage(rawValue: language) ?? .english, storage: storage
        )
        do {
            try await scenario.run(email: email, output: output)
        } catch let error as EngageError {
            output.line("✗ \(error.description)")
            if let suggestion = error.recoverySuggestion { output.line("  \(suggestion)") }
            await scenario.shutdown()
            await backend.stop()
            throw ExitCode.failure
        }
        await scenario.shutdown()
        await backend.stop()
    }
}
