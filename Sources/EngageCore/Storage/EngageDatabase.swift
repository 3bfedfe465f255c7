import Foundation
import GRDB
import Logging

/// The SQLite database of one registry: every provider's storage namespace, the core key-value table,
/// and the durable analytics queue.
///
/// A file location opens a WAL `DatabasePool` (concurrent reads, one writer); `.inMemory` opens a
/// private `DatabaseQueue`. Opening never deletes an existing file. A file that is not a database or
/// is damaged beyond opening would fail every launch, so it is moved aside (with its `-wal` and `-shm`
/// companions) to `<name>.damaged-<unix time>`, a fresh database is started, the move is logged, and
/// ``movedAsideFilePath`` names the kept copy. A directory that cannot be written is reported as
/// `EngageError(.storage)` naming the path.
///
/// Durability: commits use SQLite's WAL with `synchronous = NORMAL`. A committed write (an enqueued
/// event, a saved token) survives the app crashing or being killed as soon as the call returns; a
/// power loss or an operating-system crash may undo the last commits before the next checkpoint.
///
/// ```swift
/// let database = try EngageDatabase(location: .applicationDefault(appID: "com.example.shop"))
/// let storage = try database.namespace("warply", migrations: WarplySchema.migrations, sealer: sealer)
/// ```
@_spi(EngageProvider) public final class EngageDatabase: Sendable {
    /// The namespace that holds the core's own tables (key-value store, analytics queue).
    public static let coreNamespace = "engage"
    /// The default database file name.
    public static let defaultFileName = "engage.sqlite"

    /// The GRDB writer, for advanced use (records, observation, custom SQL).
    public let writer: any DatabaseWriter
    /// Where the database lives.
    public let location: StorageLocation
    /// The directory holding the database file, or `nil` in memory.
    public let directory: String?
    /// The database file path, or `nil` in memory.
    public let path: String?
    /// The clock used to timestamp stored values.
    public let clock: any EngageClock
    /// Where the previous database file was moved because it could not be opened (not a database, or
    /// damaged), when this open started afresh; `nil` otherwise. Its contents are lost to the SDK.
    public let movedAsideFilePath: String?
    /// The app's anonymous id kept in this database's core namespace: one instance per database, so
    /// every context and the registry over it share its state.
    package let anonymousID: AnonymousID

    /// Opens (creating if needed) the database at `location`.
    ///
    /// - Parameters:
    ///   - location: Where the database lives.
    ///   - fileName: The database file name inside the location's directory.
    ///   - environment: The process environment, used to resolve `.applicationDefault` on Linux.
    ///   - clock: The clock used to timestamp stored values.
    /// - Throws: `EngageError(.invalidConfiguration)` for a bad location or file name,
    ///   `EngageError(.storage)` when the directory cannot be created or the database cannot be opened
    ///   or migrated.
    public init(
        location: StorageLocation,
        fileName: String = EngageDatabase.defaultFileName,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        clock: any EngageClock = SystemClock()
    ) throws {
        guard StorageIdentifier.isValidSimpleName(fileName) else {
            throw EngageError(
                .invalidConfiguration,
                "Invalid database file name '\(fileName.prefix(80))': use letters, digits, '.', '-' or '_'."
            )
        }
        self.location = location
        self.clock = clock
        let directory = try location.resolvedDirectory(environment: environment)
        self.directory = directory
        if let directory {
            let path = directory + "/" + fileName
            self.path = path
            try FileSystem.createPrivateDirectory(atPath: directory)
            do {
                writer = try Self.open(path: path)
                movedAsideFilePath = nil
            } catch let error as EngageError where Self.isUnopenable(error) {
                let aside = try Self.moveAside(path: path, at: clock.now)
                Logger(label: "engage.storage").error(
                    "The database file could not be opened (not a database, or damaged); it was moved aside and a new one started",
                    metadata: ["path": "\(path)", "movedTo": "\(aside)", "error": "\(error.message)"]
                )
                writer = try Self.open(path: path)
                movedAsideFilePath = aside
            }
        } else {
            path = nil
            movedAsideFilePath = nil
            do {
                writer = try DatabaseQueue(configuration: Self.configuration())
            } catch {
                throw EngageError(.storage, "The in-memory database could not be created.", underlyingError: error)
            }
        }
        anonymousID = AnonymousID(storage: StorageNamespace(name: Self.coreNamespace, writer: writer, sealer: nil, clock: clock))
        try applyMigrations(CoreSchema.migrations, namespace: Self.coreNamespace)
    }

    /// Closes the database connections. Later accesses fail with an error. Optional: connections also
    /// close when the database is released.
    public func close() throws {
        do {
            try writer.close()
        } catch {
            throw EngageError(.storage, "The database\(pathSuffix) could not be closed.", underlyingError: error)
        }
    }

    /// Deletes what was kept aside because it could not be read, as "forget the user" must: the rows of
    /// `engage_damaged_rows` (copies of queue payloads, in plain text, and of sealed values) and the
    /// files a damaged database was moved to (`<name>.damaged-*`, with their `-wal` and `-shm`).
    ///
    /// - Throws: `EngageError(.storage)` when the rows cannot be deleted; a file that cannot be removed
    ///   is logged and left (the rows are gone either way).
    package func removeDamagedCopies() async throws {
        do {
            try await writer.write { db in
                if try db.tableExists(DamagedRows.table) { try db.execute(sql: "DELETE FROM \(DamagedRows.table)") }
            }
        } catch {
            throw EngageError(.storage, "The damaged rows\(pathSuffix) could not be deleted.", underlyingError: error)
        }
        guard let path, let directory else { return }
        let prefix = URL(fileURLWithPath: path).lastPathComponent + ".damaged-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names where name.hasPrefix(prefix) {
            do {
                try FileManager.default.removeItem(atPath: directory + "/" + name)
            } catch {
                Logger(label: "engage.storage").warning(
                    "A moved-aside database file could not be deleted", metadata: ["file": "\(name)", "error": "\(error)"])
            }
        }
    }

    /// The core namespace (`engage`): key-value access for the core itself.
    public func coreStorage(sealer: Sealer? = nil) -> StorageNamespace {
        StorageNamespace(name: Self.coreNamespace, writer: writer, sealer: sealer, clock: clock)
    }

    /// `" at <path>"`, or `""` in memory, for error messages.
    var pathSuffix: String {
        path.map { " at \($0)" } ?? " (in memory)"
    }

    static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.label = "EngageKit"
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        return configuration
    }

    /// Whether opening failed because the file is not a database or is damaged (not for a lock or a
    /// permission problem, which a later launch can get past).
    private static func isUnopenable(_ error: EngageError) -> Bool {
        guard let code = (error.underlyingError as? DatabaseError)?.resultCode else { return false }
        return code == .SQLITE_NOTADB || code == .SQLITE_CORRUPT
    }

    /// Renames the file at `path` and its `-wal` and `-shm` companions to `<path>.damaged-<unix time>`
    /// (and a numbered suffix if that exists); returns the new path of the database file.
    private static func moveAside(path: String, at date: Date) throws -> String {
        let base = "\(path).damaged-\(Int(date.timeIntervalSince1970))"
        var aside = base
        var attempt = 1
        while FileManager.default.fileExists(atPath: aside) {
            attempt += 1
            aside = "\(base)-\(attempt)"
        }
        do {
            try FileManager.default.moveItem(atPath: path, toPath: aside)
            for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                try FileManager.default.moveItem(atPath: path + suffix, toPath: aside + suffix)
            }
        } catch {
            throw EngageError(
                .storage, "The database at \(path) could not be opened and could not be moved aside.",
                recoverySuggestion: "Move the file away or choose another storage location.", underlyingError: error
            )
        }
        return aside
    }

    private static func open(path: String) throws -> DatabasePool {
        do {
            // DatabasePool switches the file to WAL with `synchronous = NORMAL`.
            return try DatabasePool(path: path, configuration: configuration())
        } catch let error as DatabaseError {
            let hint: String
            switch error.resultCode {
            case .SQLITE_NOTADB, .SQLITE_CORRUPT:
                hint = "The file is not an EngageKit database or is damaged."
            case .SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_AUTH:
                hint = "Check that the directory and file exist and are writable by this process."
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                hint = "Another process holds the database locked; try again."
            default:
                hint = "SQLite error \(error.resultCode.rawValue)."
            }
            throw EngageError(
                .storage, "The database at \(path) could not be opened: \(hint)",
                isRetryable: error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED,
                recoverySuggestion: "Move the file away or choose another storage location.",
                underlyingError: error
            )
        } catch {
            throw EngageError(.storage, "The database at \(path) could not be opened.", underlyingError: error)
        }
    }
}
