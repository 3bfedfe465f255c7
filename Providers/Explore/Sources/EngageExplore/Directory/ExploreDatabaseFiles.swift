@_spi(EngageProvider) import EngageCore
import Foundation
import GRDB

/// File handling shared by the index and the sync: read-only opening, atomic replacement.
enum ExploreDatabaseFiles {
    /// Opens `path` read-only; the file is never written to (no journal, no WAL switch).
    static func openReadOnly(_ path: String) throws -> DatabaseQueue {
        guard FileManager.default.fileExists(atPath: path) else {
            throw EngageError(.exploreDirectoryMissing, "No directory file at \(path).", providerID: .explore)
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "explore.directory"
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            // A file that is not SQLite only fails on first read.
            _ = try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
            return queue
        } catch let error as DatabaseError {
            throw EngageError(
                .storage, "The directory file at \(path) cannot be read as SQLite (\(error.resultCode)).", providerID: .explore,
                underlyingError: error
            )
        }
    }

    /// Moves `source` over `destination` in one step (same directory, so `rename(2)` is atomic).
    static func replace(_ destination: String, with source: String) throws {
        guard rename(source, destination) == 0 else {
            let code = errno
            throw EngageError(
                .storage, "Could not move \(source) into place at \(destination) (errno \(code)).", providerID: .explore
            )
        }
    }
}
