@_spi(EngageProvider) import EngageCore
import Foundation
import GRDB
import Logging

/// Builds the provider's own index of a directory file, in a separate SQLite file next to it, so the
/// downloaded file is never written to and a new download replaces it cleanly.
///
/// The index holds, per directory version:
/// - `merchants`: one row per merchant (`key` in order of first appearance), its name, name rank,
///   best discount and gift-card offers;
/// - `rows`: every listed `merchant` row with its resolved flags and coordinates, stored tile by tile
///   (``ExploreTile``), the unlocated rows last;
/// - `tiles` and `location_rtree`: each tile's range of rows, and an R*Tree with the smallest box
///   around each tile's locations;
/// - `merchant_fts`: an FTS5 index over merchant names (diacritics folded, prefix indexes);
/// - `atm_rtree` and `atm_fts` (names and manufacturers) when the file has ATMs;
/// - `territories` and `meta` (format, source fingerprint, schema version).
///
/// The index is written to a temporary file and renamed into place, so a crash mid-build never
/// leaves a half-built index behind.
struct ExploreIndexBuilder {
    /// Bumped whenever the index layout changes: an index of another format is rebuilt.
    static let formatVersion = "2"

    let directoryPath: String
    let indexPath: String
    let fingerprint: String
    let logger: Logger

    /// Builds the index and returns the schema it found.
    func build() throws -> ExploreSchema {
        let started = ContinuousClock.now
        let source = try ExploreDatabaseFiles.openReadOnly(directoryPath)
        let contents = try source.read { db in try ExploreDirectoryContents.read(from: db) }
        try source.close()

        let temporaryPath = indexPath + ".building-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: temporaryPath) }
        var configuration = Configuration()
        configuration.label = "explore.index.build"
        let index = try DatabaseQueue(path: temporaryPath, configuration: configuration)
        try index.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
            try db.inTransaction {
                try ExploreIndexWriter(contents: contents, fingerprint: fingerprint).write(to: db)
                return .commit
            }
        }
        try index.close()
        try ExploreDatabaseFiles.replace(indexPath, with: temporaryPath)
        logger.info(
            "Explore index built",
            metadata: [
                "schema": "\(contents.schema.version.rawValue)", "rows": "\(contents.rows.count)",
                "merchants": "\(contents.merchants.count)", "atms": "\(contents.atms.count)",
                "elapsed": "\(ContinuousClock.now - started)",
            ])
        return contents.schema
    }
}
