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

    /// Moves `source` over `destination` in one step (same file system, so `rename(2)` is atomic), durably:
    /// `source`'s bytes reach the disk before the rename (its index is written with `synchronous = OFF`),
    /// and the directory entry after it, so a power loss leaves either file whole, never a renamed file
    /// whose blocks were never written.
    static func replace(_ destination: String, with source: String) throws {
        try synchronize(source)
        guard rename(source, destination) == 0 else {
            let code = errno
            throw EngageError(
                .storage, "Could not move \(source) into place at \(destination) (errno \(code)).", providerID: .explore
            )
        }
        try synchronize((destination as NSString).deletingLastPathComponent)
    }

    /// `fsync(2)` of the file or folder at `path`.
    static func synchronize(_ path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw EngageError(.storage, "Could not open \(path) to write it to disk (errno \(errno)).", providerID: .explore)
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw EngageError(.storage, "Could not write \(path) to disk (errno \(errno)).", providerID: .explore)
        }
    }

    /// Whether the file at `path` looks like the installed directory `state` describes: the SQLite
    /// header, and the size recorded at install (when it was). A torn install (a file whose blocks never
    /// reached the disk reads as zeros) fails this.
    static func matches(_ path: String, bytes expected: Int64?) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 16), header == Data("SQLite format 3\u{0}".utf8) else { return false }
        guard let expected else { return true }
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value
        return size == expected
    }
}
