import ArgumentParser
import EngageEmulators
import EngageSandbox
import Foundation

/// `engage-sandbox`: serves the local backend emulators until SIGINT or SIGTERM.
///
/// After the server is listening it prints one line per emulator, `<id> <baseURL>`, e.g.
/// `reference http://127.0.0.1:8080/reference`.
@main
struct EngageSandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "engage-sandbox",
        abstract: "Serve EngageKit's local backend emulators over HTTP.",
        discussion: """
            Prints one line per emulator, "<id> <base URL>", once the server is listening, then serves \
            until interrupted (SIGINT or SIGTERM).
            """
    )

    @Option(help: "The port to listen on (0 picks a free one).")
    var port: Int = 8080

    @Option(help: "The address to bind.")
    var host: String = "127.0.0.1"

    @Option(help: "The seed of all generated data, tokens and fault probabilities.")
    var seed: UInt64 = SandboxConfiguration.defaultSeed

    @Option(name: .customLong("token-lifetime"), help: "Access token lifetime in seconds.")
    var tokenLifetime: Int = 300

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        guard tokenLifetime > 0 else { throw ValidationError("--token-lifetime must be positive.") }
    }

    func run() async throws {
        let lifetime = Duration.seconds(tokenLifetime)
        let sandbox = SandboxHost(
            emulators: BuiltInEmulators.all(tokenLifetime: lifetime),
            configuration: SandboxConfiguration(host: host, port: port, seed: seed, tokenLifetime: lifetime)
        )
        try await sandbox.run { endpoints in
            let lines = endpoints.emulators.map { "\($0.id) \($0.baseURL.absoluteString)\n" }.joined()
            // FileHandle writes are unbuffered: the lines are out before we start serving.
            FileHandle.standardOutput.write(Data(lines.utf8))
        }
    }
}
