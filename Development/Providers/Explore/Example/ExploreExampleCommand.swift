import ArgumentParser
@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExampleSupport
import EngageExplore
import ExploreEmulator
import Foundation
import Logging

/// `explore-example`: syncs a Dash-style merchant directory and buys a gift card, all offline.
///
/// Without `--database` it serves a generated directory (`--rows`) and a CTX backend from embedded
/// emulators on 127.0.0.1, syncs the directory through the Explore provider (download with progress,
/// checksum, atomic install), searches it by text, lists merchants near a point sorted by distance
/// (one row per merchant: its closest location), shows one merchant's locations and gift-card
/// providers, and buys a CTX gift card end to end. With `--database PATH` it queries that file (any
/// schema family: v1, v2 or v4) instead of syncing, and buys nothing. With `--source-url URL` it syncs
/// from that Firebase Storage object (the Dash wallet's own source: metadata, encrypted archive,
/// CRC-32C) instead of the embedded feed, and buys nothing; `engage-sandbox` serves such objects.
///
/// With `--ctx-url URL --ctx-email EMAIL --buy-merchant ID --buy-amount N` it talks to that CTX service
/// instead (the real one, or the sandbox's emulator): it signs in with the code from the `CTX_CODE`
/// environment variable or a terminal, buys one card, shows the payment request to pay with a Dash
/// wallet, and polls until the card is delivered, then prints its merchant, amounts, currency and
/// status (never its number or PIN).
@main
struct ExploreExampleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore-example",
        abstract: "Sync a merchant directory, search it by text and distance, show a merchant, and buy a CTX gift card.",
        discussion: """
            Offline by default: embedded emulators serve the directory and CTX on 127.0.0.1.

            Flags that point it at a real backend:
              --source-url URL   sync the directory from a Firebase Storage object (the Dash wallet's source)
              --ctx-url URL      buy a gift card from that CTX service (https://spend.ctx.com/), with
                                 --ctx-email, --buy-merchant and --buy-amount; the e-mailed code is read from
                                 CTX_CODE or asked for on a terminal (without either, the code is requested
                                 and the run exits with status 3: run again with CTX_CODE set)
              --piggycards-url URL   (with the PiggyCards trait) buy a PiggyCards card (https://api.piggy.cards/dash/v1/),
                                 with --piggycards-email, --buy-brand, --buy-product and --buy-amount; the one-time
                                 password is read from PIGGYCARDS_CODE or a terminal (status 3 as above; the account
                                 is kept in --storage between the two runs)
            """
    )

    @Option(name: .customLong("database"), help: "A directory file to query instead of syncing (never written to).")
    var database: String?

    @Option(
        name: .customLong("near"), parsing: .unconditional,
        help: "The centre, as LAT,LON (default: New York); a negative latitude may follow a space.")
    var near: String?

    @Option(name: .customLong("radius-m"), help: "The radius in metres (default: 20 miles).")
    var radiusMeters: Double = 20 * 1_609.344

    @Option(name: .customLong("query"), help: "Words to find in merchant names.")
    var query: String?

    @Option(name: .customLong("limit"), help: "How many merchants to list (1 to 1000).")
    var limit = 10

    @Option(
        name: .customLong("source-url"),
        help: "A Firebase Storage object URL (…/v0/b/<bucket>/o/<object>) to sync the directory from, as the Dash wallet does.")
    var sourceURL: String?

    @Option(name: .customLong("network"), help: "The network the --source-url object serves: mainnet (default) or testnet.")
    var network: ExploreNetwork = .mainnet

    @Option(name: .customLong("rows"), help: "Rows of the generated directory the embedded feed publishes (without --database).")
    var rows = 20_000

    @Option(name: .customLong("ctx-url"), help: "A CTX service to buy a gift card from (a real backend: https://spend.ctx.com/).")
    var ctxURL: String?

    @Option(name: .customLong("ctx-email"), help: "The e-mail to sign in to CTX with (with --ctx-url).")
    var ctxEmail: String?

    @Option(name: .customLong("ctx-client-id"), help: "The X-Client-Id CTX gave the app (with --ctx-url).")
    var ctxClientID = "engagekit-example"

    @Option(name: .customLong("buy-merchant"), help: "The CTX merchant id to buy a card of (with --ctx-url).")
    var buyMerchant: String?

    @Option(name: .customLong("buy-amount"), help: "The card's value, a decimal such as 25 or 25.50 (with --ctx-url).")
    var buyAmount: String?

    #if PiggyCards
        @Option(
            name: .customLong("piggycards-url"),
            help: "A PiggyCards service to buy a gift card from (a real backend: https://api.piggy.cards/dash/v1/).")
        var piggyCardsURL: String?

        @Option(name: .customLong("piggycards-email"), help: "The e-mail to sign up to PiggyCards with (with --piggycards-url).")
        var piggyCardsEmail: String?

        @Option(name: .customLong("piggycards-country"), help: "The ISO country to shop in (with --piggycards-url).")
        var piggyCardsCountry = "US"

        @Option(name: .customLong("buy-brand"), help: "The PiggyCards brand id (with --piggycards-url).")
        var buyBrand: String?

        @Option(name: .customLong("buy-product"), help: "The PiggyCards card (product) id of that brand (with --piggycards-url).")
        var buyProduct: String?

        @Option(
            name: .customLong("storage"),
            help: "Where the PiggyCards account is kept between runs: a directory, or 'memory' (default: the app's default location).")
        var storage: String?

        func validatePiggyCards() throws {
            guard let piggyCardsURL, let url = URL(string: piggyCardsURL), url.scheme == "https" || url.scheme == "http", url.host != nil
            else {
                throw ValidationError(
                    "--piggycards-url must be an http(s) URL, given with --piggycards-email, --buy-brand, --buy-product and --buy-amount.")
            }
            guard piggyCardsEmail?.contains("@") == true else { throw ValidationError("--piggycards-email must be an e-mail address.") }
            guard buyBrand?.isEmpty == false, buyProduct?.isEmpty == false else {
                throw ValidationError("--buy-brand and --buy-product must be PiggyCards ids.")
            }
            guard Self.amount(buyAmount ?? "") != nil else { throw ValidationError("--buy-amount must be a positive decimal, like 25.50.") }
            if database != nil || sourceURL != nil {
                throw ValidationError("--piggycards-url buys only: give it without --database and --source-url.")
            }
        }

        /// `--piggycards-url`: one gift card from that PiggyCards service, nothing else.
        private func buyPiggyCards(from url: URL, email: String, amount: Decimal, output: ExampleOutput) async throws {
            let storage = ExampleStorage.resolve(storage, appID: ExploreExampleSession.appID, realBackend: true)
            output.line(storage.summary)
            try await Self.withGiftCardSession(storage: storage, output: output) {
                $0.giftCards[PiggyCardsGiftCards.self] = PiggyCardsConfiguration(baseURL: url)
            } _: { explore in
                let purchase = ExploreExamplePiggyCardsPurchase(
                    explore: explore, email: email, country: piggyCardsCountry, brandID: buyBrand ?? "", productID: buyProduct ?? "",
                    amount: amount, output: output)
                try purchase.print(try await purchase.run())
            }
        }
    #endif

    @Flag(
        help: """
            Print JSON on standard output (narration goes to standard error): the nearby merchants as an array, or with --ctx-url \
            the bought card as one document.
            """)
    var json = false

    func validate() throws {
        if let near, Self.parse(near) == nil { throw ValidationError("--near must be LAT,LON with -90...90 and -180...180.") }
        guard radiusMeters.isFinite, radiusMeters >= 0 else { throw ValidationError("--radius-m must be a non-negative number.") }
        guard (1...1000).contains(limit) else { throw ValidationError("--limit must be between 1 and 1000.") }
        guard (1...2_000_000).contains(rows) else { throw ValidationError("--rows must be between 1 and 2000000.") }
        if let database, !FileManager.default.fileExists(atPath: database) { throw ValidationError("No file at \(database).") }
        if database != nil, sourceURL != nil { throw ValidationError("Give --database or --source-url, not both.") }
        #if PiggyCards
            let piggyCardsRequested = piggyCardsURL != nil || piggyCardsEmail != nil || buyBrand != nil || buyProduct != nil
            if piggyCardsRequested { try validatePiggyCards() }
        #else
            let piggyCardsRequested = false
        #endif
        if ctxURL != nil || ctxEmail != nil || buyMerchant != nil || (buyAmount != nil && !piggyCardsRequested) {
            guard let ctxURL, let url = URL(string: ctxURL), url.scheme == "https" || url.scheme == "http", url.host != nil else {
                throw ValidationError("--ctx-url must be an http(s) URL, given with --ctx-email, --buy-merchant and --buy-amount.")
            }
            guard ctxEmail?.contains("@") == true else { throw ValidationError("--ctx-email must be an e-mail address.") }
            guard buyMerchant?.isEmpty == false else { throw ValidationError("--buy-merchant must be a CTX merchant id.") }
            guard Self.amount(buyAmount ?? "") != nil else { throw ValidationError("--buy-amount must be a positive decimal, like 25.50.") }
            if database != nil || sourceURL != nil || piggyCardsRequested {
                throw ValidationError("--ctx-url buys only: give it without --database, --source-url and --piggycards-url.")
            }
        }
        if let sourceURL {
            guard let url = URL(string: sourceURL), (try? ExploreFirebaseStorage(objectURL: url, network: network)) != nil else {
                throw ValidationError("--source-url must be a Firebase Storage object URL: …/v0/b/<bucket>/o/<url-encoded object>.")
            }
        }
    }

    func run() async throws {
        let output = ExampleOutput(json: json)
        #if PiggyCards
            if let piggyCardsURL, let url = URL(string: piggyCardsURL), let email = piggyCardsEmail,
                let amount = Self.amount(buyAmount ?? "")
            {
                return try await buyPiggyCards(from: url, email: email, amount: amount, output: output)
            }
        #endif
        if let ctxURL, let url = URL(string: ctxURL), let email = ctxEmail, let merchant = buyMerchant,
            let amount = Self.amount(buyAmount ?? "")
        {
            return try await buy(from: url, email: email, merchantID: merchant, amount: amount, output: output)
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "explore-example-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let center = try near.flatMap(Self.parse) ?? ExploreDirectoryGenerator.denseCenter()
        var backend: ExploreExampleBackend?
        do {
            var explore = ExploreConfiguration(directoryFolder: scratch.appendingPathComponent("client").path, syncsAutomatically: false)
            if let database {
                explore.databasePath = database
            } else if let sourceURL, let url = URL(string: sourceURL) {
                explore.network = network
                explore.firebaseStorage = try ExploreFirebaseStorage(objectURL: url, network: network)
                output.line("Syncing the \(network.rawValue) directory from the Firebase Storage object \(url.absoluteString)")
            } else {
                let started = try await ExploreExampleBackend.start(rows: rows, center: center, folder: scratch, output: output)
                backend = started
                explore.feedURL = started.feedURL
                explore.giftCards[CTXGiftCards.self] = CTXConfiguration(baseURL: started.ctxURL, clientID: "explore-example")
            }
            let session = try await ExploreExampleSession.start(explore)
            let scenario = ExploreExampleScenario(explore: session.explore, output: output)
            if backend != nil || sourceURL != nil { try await scenario.sync() }
            let shown = try await scenario.run(center: center, radius: ExploreRadius(meters: radiusMeters), text: query, limit: limit)
            if let backend {
                try await ExploreExamplePurchase(explore: session.explore, backend: backend, output: output).run(
                    center: center, preferred: shown)
            }
            await session.stop()
            await backend?.stop()
        } catch let error as EngageError {
            await backend?.stop()
            output.line("✗ \(error.description)")
            if let suggestion = error.recoverySuggestion { output.line("  \(suggestion)") }
            throw ExitCode.failure
        }
    }

    /// `--ctx-url`: one gift card from that CTX service, nothing else.
    private func buy(from url: URL, email: String, merchantID: String, amount: Decimal, output: ExampleOutput) async throws {
        try await Self.withGiftCardSession(output: output) {
            $0.giftCards[CTXGiftCards.self] = CTXConfiguration(baseURL: url, clientID: ctxClientID)
        } _: { explore in
            let purchase = ExploreExampleRealPurchase(
                explore: explore, email: email, merchantID: merchantID, amount: amount, output: output)
            try purchase.print(try await purchase.run())
        }
    }

    /// Runs `body` with an Explore provider that has no directory and the one gift-card source
    /// `configure` sets, over `storage`; failures are reported (``reportingFailures(_:_:)``) and the
    /// session always stops.
    static func withGiftCardSession(
        storage: ExampleStorage = .resolve("memory", appID: ExploreExampleSession.appID, realBackend: false), output: ExampleOutput,
        configure: (inout ExploreConfiguration) -> Void, _ body: (ExploreProvider) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "explore-example-\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var explore = ExploreConfiguration(directoryFolder: folder.path, syncsAutomatically: false)
        configure(&explore)
        try await reportingFailures(output) {
            let session = try await ExploreExampleSession.start(explore, storage: storage)
            do {
                try await body(session.explore)
            } catch {
                await session.stop()
                throw error
            }
            await session.stop()
        }
    }

    /// Runs `body`; an `EngageError` or an example error is printed (with its suggestion) and ends the
    /// run with its exit status.
    static func reportingFailures(_ output: ExampleOutput, _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as EngageError {
            output.line("✗ \(error.description)")
            if let suggestion = error.recoverySuggestion { output.line("  \(suggestion)") }
            throw ExitCode.failure
        } catch let error as ExploreExampleError {
            output.line(error.exitCode == ExploreExampleRealPurchase.codeSentExitCode ? error.message : "✗ \(error.message)")
            throw ExitCode(error.exitCode)
        }
    }

    /// A strictly positive decimal amount (`25`, `25.50`), or `nil`.
    static func amount(_ text: String) -> Decimal? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), text.filter({ $0 == "." }).count <= 1,
            let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), value > 0
        else { return nil }
        return value
    }

    static func parse(_ text: String) -> GeoPoint? {
        let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let latitude = parts[0], let longitude = parts[1] else { return nil }
        return try? GeoPoint(latitude: latitude, longitude: longitude)
    }
}

/// `--network mainnet|testnet`: the SDK's own enum, read by its raw value (the SDK is another package).
extension ExploreNetwork: @retroactive ExpressibleByArgument {}
