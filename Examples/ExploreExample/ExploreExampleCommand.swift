import ArgumentParser
import EngageCore
import EngageExampleSupport
import EngageExplore
import ExploreEmulator
import Foundation

/// `explore-example`: queries a Dash-style merchant directory.
///
/// With `--database PATH` it queries that file (any schema family: v1, v2 or v4); without it, it
/// generates a realistic directory first. It searches by text, lists merchants near a point sorted by
/// distance (one row per merchant: its closest location), and shows one merchant's locations and
/// gift-card providers.
@main
struct ExploreExampleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore-example",
        abstract: "Search a merchant directory by text and distance, and show a merchant's locations and providers."
    )

    @Option(name: .customLong("database"), help: "A directory file to query (default: a generated one).")
    var database: String?

    @Option(name: .customLong("index"), help: "Where to keep the index of --database (default: a temporary file).")
    var index: String?

    @Option(name: .customLong("near"), help: "The centre, as LAT,LON (default: New York).")
    var near: String?

    @Option(name: .customLong("radius-m"), help: "The radius in metres (default: 20 miles).")
    var radiusMeters: Double = ExploreGeo.twentyMilesMeters

    @Option(name: .customLong("query"), help: "Words to find in merchant names.")
    var query: String?

    @Option(name: .customLong("limit"), help: "How many merchants to list (1 to 1000).")
    var limit = 10

    @Option(name: .customLong("rows"), help: "Rows of the generated directory (without --database).")
    var rows = 20_000

    @Flag(help: "Print the nearby merchants as a JSON array on standard output (narration goes to standard error).")
    var json = false

    func validate() throws {
        if let near, Self.parse(near) == nil { throw ValidationError("--near must be LAT,LON with -90...90 and -180...180.") }
        guard radiusMeters.isFinite, radiusMeters >= 0 else { throw ValidationError("--radius-m must be a non-negative number.") }
        guard (1...1000).contains(limit) else { throw ValidationError("--limit must be between 1 and 1000.") }
        if let database, !FileManager.default.fileExists(atPath: database) { throw ValidationError("No file at \(database).") }
    }

    func run() async throws {
        let output = ExampleOutput(json: json)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("explore-example-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let path: String
        if let database {
            path = database
        } else {
            path = scratch.appendingPathComponent("explore.db").path
            let summary = try ExploreDirectoryGenerator(options: .init(seed: 42, rows: rows)).write(to: path)
            output.line("Generated a directory: \(summary.rows) rows, \(summary.merchants) merchants, \(summary.atms) ATMs")
        }
        let center = try near.flatMap(Self.parse) ?? ExploreDirectoryGenerator.denseCenter()
        do {
            let directory = try ExploreDirectory.open(
                path: path, indexPath: index ?? scratch.appendingPathComponent("explore.index").path,
                logger: ExampleBackend.quietLogger(label: "explore-example")
            )
            try ExploreExampleScenario(directory: directory, output: output).run(
                center: center, radius: ExploreRadius(meters: radiusMeters), text: query, limit: limit
            )
            try directory.close()
        } catch let error as EngageError {
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
