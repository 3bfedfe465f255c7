import ArgumentParser
@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExampleSupport
import EngageWarply
import Foundation
import WarplyEmulator

/// `warply-example`: a loyalty member's tour of Warply.
///
/// It initializes (sends the device's details), logs in with an email (or, with `--register`, signs a new
/// user up, which logs them in), lists campaigns and coupons, redeems one coupon, shows the profile,
/// adds and lists a card (masked) and prints the points history. By default it starts the Warply emulator in-process; `--base-url` points it at any
/// Warply-compatible backend instead.
@main
struct WarplyExampleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "warply-example",
        abstract: "Log in to Warply, list campaigns and coupons, redeem one, and show profile, cards and points.",
        discussion: """
            Offline by default: an embedded Warply emulator answers on 127.0.0.1.

            Flags that point it at a real backend:
              --base-url URL     a Warply engage server, with --app-uuid set to the application's UUID
              --merchant-id ID   the merchant id that signs every request (the official SDK's signing; default empty)
              --signing device-registration
                                 sign with a device registration instead (GET …/register/), as older Warply backends expect
              --storage DIR      keep the sealed session (and any device registration) between runs (the default with --base-url)
            """
    )

    @Option(name: .customLong("base-url"), help: "A Warply-compatible backend (default: the embedded emulator).")
    var baseURL: String?

    @Option(name: .customLong("app-uuid"), help: "The Warply application UUID.")
    var appUUID = "f83dfde1145e4c2da69793abb2f579af"

    @Option(
        name: .customLong("merchant-id"), help: "The merchant id that signs every request (default empty, as the official SDK's examples).")
    var merchantID = ""

    @Option(name: .customLong("signing"), help: "merchant (the official SDK's, the default) or device-registration.")
    var signing = "merchant"

    @Option(name: .customLong("email"), help: "The email to log in with (DEI login), or to sign up with (--register).")
    var email = "maria@example.gr"

    @Flag(help: "Sign a new user up with --email instead of logging in (Warply's user registration).")
    var register = false

    @Option(name: .customLong("first-name"), help: "With --register: the new user's first name.")
    var firstName: String?

    @Option(name: .customLong("last-name"), help: "With --register: the new user's last name.")
    var lastName: String?

    @Option(name: .customLong("phone"), help: "With --register: the new user's mobile number (e.g. +306912345678).")
    var phone: String?

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
        guard Self.signing(signing) != nil else { throw ValidationError("--signing must be merchant or device-registration.") }
        if !register, firstName != nil || lastName != nil || phone != nil {
            throw ValidationError("--first-name, --last-name and --phone go with --register.")
        }
    }

    /// The signing scheme a `--signing` value names.
    static func signing(_ text: String) -> WarplyConfiguration.Signing? {
        switch text {
        case "merchant": .merchant
        case "device-registration": .deviceRegistration
        default: nil
        }
    }

    func run() async throws {
        let output = ExampleOutput(json: json)
        let backend = try await ExampleBackend.resolve(baseURL: baseURL, emulator: WarplyEmulator(), output: output)
        let storage = ExampleStorage.resolve(self.storage, appID: WarplyExampleScenario.appID, realBackend: baseURL != nil)
        output.line(storage.summary)
        let scenario = try await WarplyExampleScenario(
            baseURL: backend.baseURL, appUUID: appUUID, merchantID: merchantID, signing: Self.signing(signing) ?? .merchant,
            language: WarplyLanguage(rawValue: language) ?? .english, storage: storage
        )
        do {
            // The password of a sign-up comes from WARPLY_PASSWORD, never from the command line (which
            // other users of the machine can read); without it the example makes one up.
            let signUp =
                register
                ? WarplySignUp(
                    email: email, password: ProcessInfo.processInfo.environment["WARPLY_PASSWORD"] ?? "example-\(UUID().uuidString)",
                    firstName: firstName, lastName: lastName, phoneNumber: phone
                ) : nil
            try await scenario.run(email: email, signUp: signUp, output: output)
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
