@_spi(EngageProvider) import EngageCore
import Foundation
import GRDB
import Logging

/// A directory file opened for queries: the downloaded `explore.db` (never written to) plus the
/// provider's own index beside it (see `ExploreIndexBuilder`), built once per directory version.
///
/// ```swift
/// let directory = try ExploreDirectory.open(path: "/path/to/explore.db")
/// let page = try directory.merchants(.nearby(try GeoPoint(latitude: 40.7128, longitude: -74.0060), radius: .miles(20)))
/// for merchant in page.items { print(merchant.name, merchant.distanceMeters ?? 0) }
/// ```
///
/// Queries are synchronous and safe to call from any thread; ``ExploreProvider`` runs them off the
/// caller's task and adds the callback forms.
public final class ExploreDirectory: Sendable {
    /// The directory file.
    public let path: String
    /// The index file.
    public let indexPath: String
    /// The directory's schema family.
    package let schema: ExploreSchema
    /// The version the index was built for (a sync's checksum, or the file's size and date).
    public let fingerprint: String

    let database: DatabaseQueue
    let columns: ExploreColumns

    private init(
        path: String, indexPath: String, schema: ExploreSchema, fingerprint: String, database: DatabaseQueue, columns: ExploreColumns
    ) {
        self.path = path
        self.indexPath = indexPath
        self.schema = schema
        self.fingerprint = fingerprint
        self.database = database
        self.columns = columns
    }

    /// Opens the directory at `path`, building its index first when it has none for this version.
    ///
    /// - Parameters:
    ///   - path: The directory file.
    ///   - indexPath: Where the index lives (default: beside the file, `<path>.index`).
    ///   - fingerprint: The directory's version (a sync passes the published checksum); by default the
    ///     file's size and modification date.
    ///   - logger: Receives the build report.
    /// - Throws: `EngageError(.exploreDirectoryMissing)` without a file, `.storage` for a file that is
    ///   not a readable directory.
    public static func open(
        path: String, indexPath: String? = nil, fingerprint: String? = nil, logger: Logger = Logger(label: "engage.explore")
    ) throws -> ExploreDirectory {
        let indexPath = indexPath ?? path + ".index"
        let fingerprint = try fingerprint ?? defaultFingerprint(of: path)
        if (try? indexIsCurrent(indexPath: indexPath, fingerprint: fingerprint)) != true {
            _ = try ExploreIndexBuilder(directoryPath: path, indexPath: indexPath, fingerprint: fingerprint, logger: logger).build()
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "explore.query"
        configuration.prepareDatabase { db in
            try db.execute(sql: "ATTACH DATABASE ? AS dir", arguments: [path])
        }
        let database: DatabaseQueue
        let columns: ExploreColumns
        let schema: ExploreSchema
        do {
            database = try DatabaseQueue(path: indexPath, configuration: configuration)
            (schema, columns) = try database.read { db in
                (try ExploreSchema.detect(in: db, schemaName: "dir"), try ExploreColumns.load(from: db))
            }
        } catch let error as DatabaseError {
            throw EngageError(
                .storage, "The explore index at \(indexPath) cannot be read (\(error.resultCode)).", providerID: .explore,
                underlyingError: error)
        }
        return ExploreDirectory(
            path: path, indexPath: indexPath, schema: schema, fingerprint: fingerprint, database: database, columns: columns)
    }

    /// Closes the files (later queries fail).
    public func close() throws {
        try database.close()
    }

    /// The number of listed merchants and rows.
    public var counts: (merchants: Int, rows: Int) { (columns.merchantCount, columns.rowCount) }

    /// Size and modification date: enough to notice a replaced file.
    static func defaultFingerprint(of path: String) throws -> String {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
            throw EngageError(.exploreDirectoryMissing, "No directory file at \(path).", providerID: .explore)
        }
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "file:\(size):\(modified)"
    }

    /// Whether the index at `indexPath` was built for `fingerprint` in this format.
    private static func indexIsCurrent(indexPath: String, fingerprint: String) throws -> Bool {
        guard FileManager.default.fileExists(atPath: indexPath) else { return false }
        var configuration = Configuration()
        configuration.readonly = true
        let index = try DatabaseQueue(path: indexPath, configuration: configuration)
        defer { try? index.close() }
        return try index.read { db in
            let format = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'format'")
            let built = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'fingerprint'")
            return format == ExploreIndexBuilder.formatVersion && built == fingerprint
        }
    }
}
