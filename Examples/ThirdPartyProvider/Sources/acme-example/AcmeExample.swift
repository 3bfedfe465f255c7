@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import AcmeEmulator
@_spi(EngageProvider) import AcmeOffers
import ArgumentParser
@_spi(EngageProvider) import Engage
@_spi(EngageProvider) import EngageExampleSupport
import Foundation

/// `acme-example`: lists Acme's deals through the facade and claims one.
///
/// By default it starts the Acme emulator in-process; `--base-url` points it at another Acme backend
/// (for example `acme-sandbox`'s).
@main
struct AcmeExample: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "acme-example", abstract: "List Acme deals and claim one.")

    @Option(name: .customLong("base-url"), help: "An Acme backend (default: the embedded emulator).")
    var baseURL: String?

    @Option(name: .customLong("api-key"), help: "The API key.")
    var apiKey = "acme-demo-key"

    @Flag(help: "Print the deals as JSON.")
    var json = false

    func validate() throws {
        if let baseURL, URL(string: baseURL)?.host == nil { throw ValidationError("--base-url must be an absolute http(s) URL.") }
    }

    func run() async throws {
        let output = ExampleOutput(json: json)
        let backend = try await ExampleBackend.resolve(baseURL: baseURL, emulator: AcmeEmulator(apiKey: apiKey), output: output)
        var configuration = EngageConfiguration.preset(.development, appID: "com.example.acme")
        configuration.storage = .inMemory
        configuration.logLevel = .error  // the example's own narration only
        let engage = try Engage(
            configuration: configuration,
            providers: [.provider(AcmeProvider.self, configuration: AcmeConfiguration(baseURL: backend.baseURL, apiKey: apiKey))],
            environment: RegistryEnvironment(secretStore: InMemorySecretStore(), logger: ExampleBackend.quietLogger(label: "acme-example"))
        )
        do {
            let deals = try await engage.deals(limit: 10)
            if json {
                try output.printJSON(deals.items)
            } else {
                output.section("Deals")
                for deal in deals.items { output.line("\(deal.id)  -\(deal.percentOff) %  \(deal.title)") }
                for (id, error) in deals.report.failures { output.line("✗ \(id): \(error.message)") }
            }
            if let first = deals.items.first {
                let claim = try await engage.provider(AcmeProvider.self).claim(dealID: first.id)
                output.line("Claimed \(claim.dealID): code \(claim.code)")
            }
        } catch {
            output.line("✗ \(error)")
            await engage.shutdown()
            await backend.stop()
            throw ExitCode.failure
        }
        await engage.shutdown()
        await backend.stop()
    }
}
