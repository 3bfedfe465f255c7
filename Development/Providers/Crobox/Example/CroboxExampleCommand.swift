import ArgumentParser
import CroboxEmulator
@_spi(EngageProvider) import EngageCore
import EngageCrobox
@_spi(EngageProvider) import EngageExampleSupport
import Foundation

/// `crobox-example`: a product overview page against Crobox.
///
/// It sends a page view with impressions, fetches promotions for a placeholder and products, prints
/// each promotion with its badge, sends add-to-cart and purchase events, and shows what the backend
/// received. By default it starts the Crobox emulator in-process; `--base-url` points it at any
/// Crobox-compatible backend instead.
@main
struct CroboxExampleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crobox-example",
        abstract: "Show Crobox promotions and send page and commerce events.",
        discussion: """
            Offline by default: an embedded Crobox emulator answers on 127.0.0.1.

            Flags that point it at a real backend:
              --base-url URL     Crobox's API (https://api.crobox.com), with --container set to your container id
            """
    )

    @Option(name: .customLong("base-url"), help: "A Crobox-compatible backend (default: the embedded emulator).")
    var baseURL: String?

    @Option(name: .customLong("container"), help: "The Crobox container id.")
    var containerID = "xlrc9t"

    @Option(name: .customLong("placeholder"), help: "The placeholder id to ask promotions for.")
    var placeholderID = "14"

    @Option(name: .customLong("products"), help: "Comma-separated product ids shown on the page.")
    var products = "sku-1001,sku-1002,sku-1003,sku-1004"

    @Option(name: .customLong("storage"), help: ArgumentHelp(stringLiteral: ExampleStorage.optionHelp))
    var storage: String?

    @Flag(help: "Print the promotions response (context and promotions with typed badges) as JSON.")
    var json = false

    func validate() throws {
        if let baseURL, URL(string: baseURL)?.host == nil {
            throw ValidationError("--base-url must be an absolute http(s) URL.")
        }
        if productIDs.count > 100 { throw ValidationError("--products takes at most 100 ids.") }
    }

    var productIDs: [String] {
        products.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func run() async throws {
        let output = ExampleOutput(json: json)
        let emulator = CroboxEmulator()
        let backend = try await ExampleBackend.resolve(baseURL: baseURL, emulator: emulator, output: output)
        let storage = ExampleStorage.resolve(self.storage, appID: CroboxExampleScenario.appID, realBackend: baseURL != nil)
        output.line(storage.summary)
        let scenario = try await CroboxExampleScenario(baseURL: backend.baseURL, containerID: containerID, storage: storage)
        do {
            try await scenario.run(placeholderID: placeholderID, productIDs: productIDs, output: output)
        } catch let error as EngageError {
            output.line("✗ \(error.description)")
            if let suggestion = error.recoverySuggestion { output.line("  \(suggestion)") }
            await scenario.shutdown()
            await backend.stop()
            throw ExitCode.failure
        }
        if backend.sandbox != nil {
            output.section("Events the backend received")
            for event in emulator.receivedEvents {
                let details = [
                    event.productID.map { "product \($0)" },
                    event.impressions.isEmpty ? nil : "impressions \(event.impressions.joined(separator: ","))",
                ]
                .compactMap { $0 }.joined(separator: ", ")
                output.line("e=\(event.counter.map(String.init) ?? "?") t=\(event.type) \(details)")
            }
        } else {
            output.line("Events were delivered to \(backend.baseURL.absoluteString); see that backend for what it received.")
        }
        await scenario.shutdown()
        await backend.stop()
    }
}
