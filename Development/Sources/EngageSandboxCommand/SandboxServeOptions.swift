@_spi(EngageProvider) import EngageCore
import ArgumentParser
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) import EngageSandboxUI
import Foundation

/// The command-line options of a sandbox that serves emulators, and the serving itself: what
/// `engage-sandbox` runs, for a tool of your own that serves your emulators (alone or next to
/// EngageKit's).
///
/// ```swift
/// @main
/// struct AcmeSandbox: AsyncParsableCommand {
///     @OptionGroup var options: SandboxServeOptions
///
///     func run() async throws {
///         try await options.serve { tokenLifetime in [AcmeEmulator(tokenLifetime: tokenLifetime)] }
///     }
/// }
/// ```
///
/// Once the server listens, ``serve(emulators:listening:)`` prints one line per emulator,
/// `<id> <base URL>` (e.g. `acme http://127.0.0.1:8080/acme`), then `ui <URL>`, the sandbox's web
/// UI (`SandboxUI`, loopback clients only), and serves until SIGINT or SIGTERM.
public struct SandboxServeOptions: ParsableArguments, Sendable {
    /// The port to listen on; 0 picks a free one.
    @Option(help: "The port to listen on (0 picks a free one).")
    public var port: Int = 8080

    /// The address to bind: loopback by default, so nothing outside the machine reaches the emulators.
    @Option(help: "The address to bind.")
    public var host: String = "127.0.0.1"

    /// The seed of all generated data, tokens and fault probabilities, so runs are reproducible.
    @Option(help: "The seed of all generated data, tokens and fault probabilities.")
    public var seed: UInt64 = SandboxConfiguration.defaultSeed

    /// The lifetime of the access tokens the emulators issue, in seconds (short values let you watch
    /// an app refresh).
    @Option(name: .customLong("token-lifetime"), help: "Access token lifetime in seconds.")
    public var tokenLifetime: Int = 300

    /// Options with their defaults (ArgumentParser fills them from the command line).
    public init() {}

    /// Refuses a port outside 0...65535 and a token lifetime that is not positive.
    public func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        guard tokenLifetime > 0 else { throw ValidationError("--token-lifetime must be positive.") }
    }

    /// The sandbox configuration these options describe.
    public var configuration: SandboxConfiguration {
        SandboxConfiguration(host: host, port: port, seed: seed, tokenLifetime: .seconds(tokenLifetime))
    }

    /// Serves the emulators `emulators` makes (given the token lifetime) and the web UI until SIGINT
    /// or SIGTERM, after printing one `<id> <base URL>` line per emulator and a `ui <URL>` line on
    /// standard output.
    ///
    /// `listening` runs once the server listens, before the lines are printed, and returns more lines
    /// to print (`engage-sandbox` writes its configuration file there).
    public func serve(
        emulators: (Duration) -> [any Emulator],
        listening: @escaping @Sendable (SandboxEndpoints) -> [String] = { _ in [] }
    ) async throws {
        let sandbox = SandboxHost(emulators: emulators(.seconds(tokenLifetime)), configuration: configuration, extensions: [SandboxUI()])
        try await sandbox.run { endpoints in
            let ui = SandboxUI.url(for: endpoints).map { ["ui \($0.absoluteString)"] } ?? []
            let extra = ui + listening(endpoints)
            let lines = (endpoints.emulators.map { "\($0.id) \($0.baseURL.absoluteString)" } + extra).map { $0 + "\n" }.joined()
            // FileHandle writes are unbuffered: the lines are out before serving starts.
            FileHandle.standardOutput.write(Data(lines.utf8))
        }
    }
}
