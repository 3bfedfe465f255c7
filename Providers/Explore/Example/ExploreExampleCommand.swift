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
@main
struct ExploreExampleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore-example",
        abstract: "Sync a merchant directory, search it by text and distance, show a merchant, and buy a CTX gift card."
    )

    @Option(name: .customLong("database"), help: "A directory file to query instead of syncing (never written to).")
    var database: String?

    @Option(
        name: .customLong("near"), parsing: .unconditional,
        help: "The centre, as LAT,LON (default: New York); a negative latitude may follow a space.")
    var near: String?

    @Option(name: .customLong("radius-m"), help: "The radius in metres (default: 20 miles).")
    var radiusMeters: Double = ExploreGeo.twentyMilesMeters

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

    @Flag(help: "Print the nearby merchants as a JSON array on standard output (narration goes to standard error).")
    var json = false

    func validate() throws {
        if let near, Self.parse(near) == nil { throw ValidationError("--near must be LAT,LON with -90...90 and -180...180.") }
        guard radiusMeters.isFinite, radiusMeters >= 0 else { throw ValidationError("--radius-m must be a non-negative number.") }
        guard (1...1000).contains(limit) else { throw ValidationError("--limit must be between 1 and 1000.") }
        guard (1...2_000_000).contains(rows) else { throw ValidationError("--rows must be between 1 and 2000000.") }
        if let database, !FileManager.default.fileExists(atPath: database) { throw ValidationError("No file at \(database).") }
        if database != nil, sourceURL != nil { throw ValidationError("Give --database or --source-url, not both.") }
        if let sourceURL {
            guard let url = URL(string: sourceURL), (try? ExploreFirebaseStorage(objectURL: url, network: network)) != nil else {
                throw ValidationError("--source-url must be a Firebase Storage object URL: …/v0/b/<bucket>/o/<url-encoded object>.")
            }
        }
    }

    func run() async throws {
        let output = ExampleOutput(json: json)
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

    static func parse(_ text: String) -> GeoPoint? {
        let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let latitude = parts[0], let longitude = parts[1] else { return nil }
        return try? GeoPoint(latitude: latitude, longitude: longitude)
    }
}

extension ExploreNetwork: ExpressibleByArgument {}
