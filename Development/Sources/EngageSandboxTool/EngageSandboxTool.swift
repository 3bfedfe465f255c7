import ArgumentParser
@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageEmulators
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) import EngageSandboxCommand
import Foundation

/// `engage-sandbox`: serves the local backend emulators compiled into this build until SIGINT or
/// SIGTERM.
///
/// After the server is listening it prints one line per emulator, `<id> <baseURL>`, e.g.
/// `reference http://127.0.0.1:8080/reference`. Third parties build the same tool for their own
/// emulators with `SandboxServeOptions`.
@main
struct EngageSandboxTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "engage-sandbox",
        abstract: "Serve EngageKit's local backend emulators over HTTP.",
        discussion: """
            Prints one line per emulator, "<id> <base URL>", once the server is listening, then serves \
            until interrupted (SIGINT or SIGTERM). With --configuration-out it also writes an EngageKit \
            configuration whose every built-in provider talks to these emulators (at --public-host when \
            given, for an app on another device), and prints "configuration <path>".
            """
    )

    @OptionGroup var options: SandboxServeOptions

    /// Where to write the JSON configuration for the emulators (load it with `EngageConfiguration.load(json:)`).
    @Option(name: .customLong("configuration-out"), help: "Write an EngageKit configuration (JSON) for these emulators to this file.")
    var configurationOut: String?

    /// The host name the written configuration uses for the emulators, instead of the bound address:
    /// this machine's name on the network (`my-mac.local`) for an app on a phone, with `--host 0.0.0.0`.
    @Option(
        name: .customLong("public-host"),
        help: "The host name the written configuration uses (this machine's name on the network, for a device; bind with --host 0.0.0.0).")
    var publicHost: String?

    /// The app id written into that configuration.
    @Option(name: .customLong("app-id"), help: "The appID of the written configuration.")
    var appID = "org.engagekit.sandbox"

    func run() async throws {
        let output = configurationOut
        let appID = appID
        let publicHost = publicHost
        try await options.serve(emulators: { tokenLifetime in BuiltInEmulators.all(tokenLifetime: tokenLifetime) }) { endpoints in
            guard let output else { return [] }
            do {
                let reached = publicHost.map { endpoints.reached(at: $0) } ?? endpoints
                let configuration = try BuiltInEmulators.configuration(appID: appID, endpoints: reached)
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                let url = URL(fileURLWithPath: output)
                try encoder.encode(configuration).write(to: url, options: .atomic)
                return ["configuration \(url.path)"]
            } catch {
                FileHandle.standardError.write(Data("engage-sandbox: cannot write \(output): \(error)\n".utf8))
                Foundation.exit(1)
            }
        }
    }
}
