import ArgumentParser
import EngageEmulators
import EngageSandboxCommand

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
            until interrupted (SIGINT or SIGTERM).
            """
    )

    @OptionGroup var options: SandboxServeOptions

    func run() async throws {
        try await options.serve { tokenLifetime in BuiltInEmulators.all(tokenLifetime: tokenLifetime) }
    }
}
