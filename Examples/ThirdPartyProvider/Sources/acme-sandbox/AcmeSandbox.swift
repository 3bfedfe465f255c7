@_spi(EngageProvider) import AcmeEmulator
import ArgumentParser
@_spi(EngageProvider) import EngageSandboxCommand

/// `acme-sandbox`: serves the Acme emulator on loopback, printing `acme <base URL>`, until SIGINT or
/// SIGTERM. The options are `engage-sandbox`'s (`--port`, `--host`, `--seed`, `--token-lifetime`).
@main
struct AcmeSandbox: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "acme-sandbox", abstract: "Serve the Acme emulator over HTTP.")

    @OptionGroup var options: SandboxServeOptions

    func run() async throws {
        try await options.serve { _ in [AcmeEmulator()] }
    }
}
