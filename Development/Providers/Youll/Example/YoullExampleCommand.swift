import ArgumentParser
@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExampleSupport
import EngageYoull
import Foundation
import YoullEmulator

/// `youll-example`: browse Youll content, as a guest or as the host app's user.
///
/// It shows the home feed and the categories, reads the categories again from the cache, and shows one
/// content item; with a user it also likes the item, creates a playlist and adds to it, answers an
/// event, takes a quiz and shows the profile (each change empties the cache, whose answers it may
/// have made stale). By default it starts the Youll emulator in-process and
/// uses a token the emulator issues for the user `u-example`; `--graphql-url`/`--rest-url` point it
/// at another backend, and `--token` hands it the host app's token (without one it browses as a guest).
/// `--paywall` adds the paywall of `--placement` (`onboarding` by default) and the super paywall.
@main
struct YoullExampleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "youll-example",
        abstract: "Browse Youll content and act as the host app's user.",
        discussion: """
            Offline by default: an embedded Youll emulator answers on 127.0.0.1.

            Flags that point it at a real backend:
              --graphql-url URL  Youll's GraphQL endpoint, with --rest-url for its REST base URL
              --token JWT        the host app's access token for that backend (without it: a guest)
            """
    )

    @Option(name: .customLong("graphql-url"), help: "A Youll GraphQL endpoint (default: the embedded emulator).")
    var graphQLURL: String?

    @Option(name: .customLong("rest-url"), help: "The Youll REST base URL, with --graphql-url.")
    var restURL: String?

    @Option(name: .customLong("token"), help: "The host app's access token (JWT). Without it: a guest, or the emulator's user.")
    var token: String?

    @Flag(name: .customLong("guest"), help: "Browse as a guest even with the embedded emulator.")
    var guest = false

    @Option(name: .customLong("lang"), help: "The content language (extraLang), e.g. el or de.")
    var language = ""

    @Option(name: .customLong("storage"), help: ArgumentHelp(stringLiteral: ExampleStorage.optionHelp))
    var storage: String?

    @Flag(help: "Also show the paywall of --placement and the super paywall (Youll's paywall configuration).")
    var paywall = false

    @Option(name: .customLong("placement"), help: "With --paywall: the paywall placement, e.g. onboarding or content_locked.")
    var placement = "onboarding"

    @Flag(help: "Print {\"homeFeed\": [...], \"categories\": [...], \"profile\": ..., \"paywall\": ...} as JSON.")
    var json = false

    func validate() throws {
        for (name, value) in [("--graphql-url", graphQLURL), ("--rest-url", restURL)] {
            if let value, URL(string: value)?.host == nil { throw ValidationError("\(name) must be an absolute http(s) URL.") }
        }
        if restURL != nil, graphQLURL == nil { throw ValidationError("--rest-url needs --graphql-url.") }
        if !language.isEmpty, !language.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-") }) {
            throw ValidationError("--lang must be a language code such as el.")
        }
    }

    func run() async throws {
        let output = ExampleOutput(json: json)
        let emulator = YoullEmulator()
        let backend = try await ExampleBackend.resolve(baseURL: graphQLURL, emulator: emulator, output: output)
        let endpoints: (graphQL: URL, rest: URL?)
        if graphQLURL != nil {
            endpoints = (backend.baseURL, restURL.flatMap(URL.init(string:)))
        } else {
            endpoints = (backend.baseURL.appendingPathComponent("v1/graphql"), backend.baseURL.appendingPathComponent("api/rest"))
        }
        let userToken = token ?? (backend.sandbox != nil && !guest ? emulator.issueToken(userID: "u-example") : nil)
        let storage = ExampleStorage.resolve(self.storage, appID: YoullExampleScenario.appID, realBackend: graphQLURL != nil)
        output.line(storage.summary)
        let scenario = try await YoullExampleScenario(
            graphQLEndpoint: endpoints.graphQL, restBaseURL: endpoints.rest, language: language, token: userToken, storage: storage
        )
        do {
            try await scenario.run(output: output, paywallPlacement: paywall ? placement : nil)
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
