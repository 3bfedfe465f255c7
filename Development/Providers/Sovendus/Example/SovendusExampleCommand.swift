import ArgumentParser
@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExampleSupport
import EngageEmulators
import EngageSovendus
import Foundation
import SovendusEmulator

/// `sovendus-example`: the order-confirmation banner page for an order, the benefits list and,
/// with `--redeem`, the coupon redemption.
///
/// It writes the page to `--out`; by default the page loads the embedded emulator's stand-in banner
/// script and the other calls go to the embedded emulator. `--base-url` sends them to another
/// Sovendus-compatible backend (such as `engage-sandbox`'s), `--script-url` points the page at
/// another script, and `--serve` keeps the emulator running and serves the page on loopback for a
/// browser.
@main
struct SovendusExampleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sovendus-example",
        abstract: "Write the Sovendus banner page for an order, list the benefits and redeem its coupon.",
        discussion: """
            Offline by default: an embedded Sovendus emulator serves the banner script and the benefits on 127.0.0.1.

            Flags that point it at a real backend:
              --base-url URL     a Sovendus-compatible backend for benefits, redemption and telemetry
              --script-url URL   the banner script the page loads (Sovendus' own, e.g. https://api.sovendus.com/sovabo/common/js/flexibleIframe.js)
              --traffic-source, --traffic-medium, --traffic-medium-id   the numbers Sovendus gave the shop
            """
    )

    @Option(name: .customLong("order-id"), help: "The shop's order id.")
    var orderID: String

    @Option(name: .customLong("order-value"), help: "The order's net value, e.g. 12.34.")
    var orderValue: String

    @Option(name: .customLong("currency"), help: "The ISO 4217 currency, e.g. EUR.")
    var currency: String

    @Option(name: .customLong("coupon"), help: "The coupon code used with the order.")
    var coupon: String?

    @Option(name: .customLong("email"), help: "The consumer's e-mail address.")
    var email: String?

    @Option(name: .customLong("first-name"), help: "The consumer's first name.")
    var firstName: String?

    @Option(name: .customLong("last-name"), help: "The consumer's last name.")
    var lastName: String?

    @Option(name: .customLong("country"), help: "The consumer's ISO 3166 country, e.g. DE.")
    var country: String?

    @Option(name: .customLong("platform"), help: "The web view the page is for: ios, android, flutter, react-native or web.")
    var platform: SovendusPlatform = .ios

    @Option(name: .customLong("traffic-source"), help: "The traffic source number (default: the emulator's).")
    var trafficSource = SovendusEmulator.seededTrafficSourceNumber

    @Option(name: .customLong("traffic-medium"), help: "The traffic medium number (default: the emulator's).")
    var trafficMedium = SovendusEmulator.seededTrafficMediumNumber

    @Option(name: .customLong("traffic-medium-id"), help: "The traffic medium's public id, a UUID (default: the emulator's).")
    var trafficMediumID = SovendusEmulator.seededTrafficMediumPublicID.uuidString.lowercased()

    @Option(name: .customLong("script-url"), help: "The banner script the page loads (default: the backend's stand-in).")
    var scriptURL: String?

    @Option(
        name: .customLong("base-url"),
        help: "A Sovendus-compatible backend for benefits, redemption and telemetry (default: the embedded emulator).")
    var baseURL: String?

    @Option(name: .customLong("out"), help: "Where to write the page.")
    var out: String

    @Flag(name: .customLong("redeem"), help: "Redeem the coupon (needs --coupon and --email).")
    var redeem = false

    @Flag(name: .customLong("serve"), help: "Serve the page and the emulator on loopback until interrupted.")
    var serve = false

    @Flag(help: "Print {\"page\": path, \"benefits\": [...], \"redemption\": {...}} as JSON.")
    var json = false

    func validate() throws {
        for case let (name, value?) in [("--base-url", baseURL), ("--script-url", scriptURL)] {
            guard let url = URL(string: value), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), !(url.host ?? "").isEmpty else {
                throw ValidationError("\(name) must be an absolute http(s) URL.")
            }
        }
        if UUID(uuidString: trafficMediumID) == nil { throw ValidationError("--traffic-medium-id must be a UUID.") }
        if netValue == nil { throw ValidationError("--order-value must be a decimal number such as 12.34.") }
        if redeem, coupon == nil || email == nil { throw ValidationError("--redeem needs --coupon and --email.") }
        if serve, baseURL != nil { throw ValidationError("--serve serves the page from the embedded emulator: leave out --base-url.") }
    }

    /// The order value, read with `.` as the separator whatever the locale.
    var netValue: Decimal? {
        let text = orderValue.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }) else { return nil }
        return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }

    func run() async throws {
        let output = ExampleOutput(json: json)
        let emulator = SovendusEmulator(
            configuration: .init(
                trafficSourceNumber: trafficSource, trafficMediumNumber: trafficMedium,
                trafficMediumPublicID: UUID(uuidString: trafficMediumID) ?? SovendusEmulator.seededTrafficMediumPublicID
            ))
        let backend = try await ExampleBackend.resolve(baseURL: baseURL, emulator: emulator, output: output)
        var configuration = emulator.providerConfiguration(baseURL: backend.baseURL)
        configuration.trafficSourceNumber = trafficSource
        configuration.trafficMediumNumber = trafficMedium
        configuration.trafficMediumPublicID = UUID(uuidString: trafficMediumID)
        if let scriptURL, let url = URL(string: scriptURL) { configuration.scriptURL = url }
        let scenario: SovendusExampleScenario
        do {
            scenario = try await SovendusExampleScenario(configuration: configuration)
        } catch let error as EngageError {
            output.line("✗ \(error.description)")
            await backend.stop()
            throw ExitCode.failure
        }
        let order = SovendusOrder(id: orderID, netValue: netValue ?? 0, currency: currency, couponCode: coupon)
        let consumer = SovendusConsumer(firstName: firstName, lastName: lastName, email: email, country: country)
        do {
            let result = try await scenario.run(
                order: order, consumer: consumer, platform: platform, out: URL(fileURLWithPath: out), redeem: redeem, output: output)
            if serve, backend.sandbox != nil {
                let path = emulator.hostPage(result.html)
                output.line("Serving the page at \(backend.baseURL.appendingPathComponent(path).absoluteString) (Ctrl-C to stop)")
                while !Task.isCancelled { try await Task.sleep(for: .seconds(3600)) }
            }
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

/// `--platform ios|android|…`: the SDK's own enum, read by its raw value (the SDK is another package).
extension SovendusPlatform: @retroactive ExpressibleByArgument {}
