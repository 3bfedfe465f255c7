@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import GRDB
import EngageTestTraits
import Testing

@Suite("Storage: database", .bounded)
struct StorageDatabaseTests {
    @Test func fileDatabaseUsesWALAndCreatesAPrivateDirectory() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dataPath = directory.appending("a/b/data")
        let database = try EngageDatabase(location: .directory(dataPath))
        #expect(database.path == dataPath + "/engage.sqlite")
        #expect(database.writer is DatabasePool)
        let attributes = try FileManager.default.attributesOfItem(atPath: dataPath)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        let (journal, foreignKeys, synchronous, busyTimeout) = try database.writer.write { db in
            (
                try String.fetchOne(db, sql: "PRAGMA journal_mode"),
                try Bool.fetchOne(db, sql: "PRAGMA foreign_keys"),
                try Int.fetchOne(db, sql: "PRAGMA synchronous"),
                try Int.fetchOne(db, sql: "PRAGMA busy_timeout")
            )
        }
        #expect(journal == "wal")
        #expect(foreignKeys == true)
        #expect(synchronous == 1)  // NORMAL
        #expect((busyTimeout ?? 0) > 0)
        #expect(
            try database.appliedMigrations(namespace: "engage") == [
                "kv-v1", "queue-v1", "damaged-rows-v1", "queue-v2-destinations", "queue-v3-insert-bytes",
            ])
        try database.close()
    }

    @Test("the core's migrations run with foreign keys on (no deferred whole-database check); a provider's with them deferred")
    func foreignKeyChecksPerNamespace() throws {
        let database = try EngageDatabase(location: .inMemory, clock: FakeClock())
        let seen = Locked<[String: Bool]>([:])
        func probe(_ namespace: String) -> StorageMigration {
            StorageMigration("probe-\(namespace)") { db in
                let enabled = try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") ?? false
                seen.withLock { $0[namespace] = enabled }
            }
        }
        try database.applyMigrations([probe("engage")], namespace: EngageDatabase.coreNamespace)
        _ = try database.namespace("alpha", migrations: [probe("alpha")])
        #expect(seen.value == ["engage": true, "alpha": false])
        try database.close()
    }

    @Test func customFileNameAndApplicationDefault() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let database = try EngageDatabase(
            location: .applicationDefault(appID: "com.example.shop"), fileName: "shop.sqlite",
            environment: ["XDG_DATA_HOME": directory.path, "HOME": directory.path]
        )
        #if !canImport(Darwin)
            #expect(database.path == directory.appending("com.example.shop/shop.sqlite"))
            #expect(FileManager.default.fileExists(atPath: directory.appending("com.example.shop/shop.sqlite")))
        #endif
        expectEngageError(.invalidConfiguration) {
            _ = try EngageDatabase(location: .directory(directory.path), fileName: "../x.sqlite")
        }
    }

    @Test func inMemoryDatabasesAreIndependent() throws {
        let first = try EngageDatabase(location: .inMemory)
        let second = try EngageDatabase(location: .inMemory)
        #expect(first.path == nil)
        try first.coreStorage().setData(Data("1".utf8), forKey: "k")
        #expect(try second.coreStorage().data(forKey: "k") == nil)
        #expect(try first.coreStorage().data(forKey: "k") == Data("1".utf8))
    }

    /// A file that is not a database would fail every launch: it is moved aside (kept, never deleted),
    /// a fresh database starts, and the move is reported; the next launch opens the fresh one.
    @Test func aFileThatIsNotADatabaseIsMovedAsideAndAFreshOneStarts() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.appending("engage.sqlite")
        let content = Data(repeating: 0x42, count: 4096)
        #expect(FileManager.default.createFile(atPath: path, contents: content))
        let clock = FakeClock(now: Date(timeIntervalSince1970: 1_800_000_000))

        let database = try EngageDatabase(location: .directory(directory.path), clock: clock)
        #expect(database.movedAsideFilePath == path + ".damaged-1800000000")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + ".damaged-1800000000")) == content)
        try database.coreStorage().setData(Data("kept".utf8), forKey: "k")
        try database.close()

        let reopened = try EngageDatabase(location: .directory(directory.path), clock: clock)
        #expect(reopened.movedAsideFilePath == nil)
        #expect(try reopened.coreStorage().data(forKey: "k") == Data("kept".utf8))
    }

    @Test func anUncreatableDirectoryIsReported() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.appending("plain-file")
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        let error = expectEngageError(.storage) { _ = try EngageDatabase(location: .directory(file + "/sub")) }
        #expect(error?.message.contains(file) == true)
        expectEngageError(.storage) { _ = try EngageDatabase(location: .directory(file)) }
    }

    @Test func closedDatabaseRefusesAccessWithAnError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let database = try EngageDatabase(location: .directory(directory.path))
        try database.close()
        expectEngageError(.storage) { _ = try database.coreStorage().keys() }
    }
}

@Suite("Storage: namespaces and migrations", .bounded)
struct StorageMigrationTests {
    /// A migration creating `<namespace>_items`, counting its runs.
    static func createItems(_ namespace: String, runs: Locked<[String]>, name: String = "v1") -> StorageMigration {
        StorageMigration(name) { db in
            runs.withLock { $0.append("\(namespace)/\(name)") }
            try db.execute(sql: "CREATE TABLE \(namespace)_items (id INTEGER PRIMARY KEY, title TEXT)")
        }
    }

    static func addColumn(_ namespace: String, runs: Locked<[String]>, name: String = "v2") -> StorageMigration {
        StorageMigration(name) { db in
            runs.withLock { $0.append("\(namespace)/\(name)") }
            try db.execute(sql: "ALTER TABLE \(namespace)_items ADD COLUMN note TEXT")
        }
    }

    @Test func namespacesWithTheSameMigrationNamesDoNotClash() throws {
        let database = try EngageDatabase(location: .inMemory)
        let runs = Locked<[String]>([])
        let alpha = try database.namespace("alpha", migrations: [Self.createItems("alpha", runs: runs)])
        let beta = try database.namespace(
            "beta", migrations: [Self.createItems("beta", runs: runs), Self.addColumn("beta", runs: runs)]
        )
        // alpha gains v2 after beta already has it: alpha's migrator ignores beta's records and vice versa.
        _ = try database.namespace(
            "alpha", migrations: [Self.createItems("alpha", runs: runs), Self.addColumn("alpha", runs: runs)]
        )
        #expect(runs.value == ["alpha/v1", "beta/v1", "beta/v2", "alpha/v2"])
        #expect(try database.appliedMigrations(namespace: "alpha") == ["v1", "v2"])
        #expect(try database.appliedMigrations(namespace: "beta") == ["v1", "v2"])
        #expect(alpha.tableName("items") == "alpha_items")
        #expect(beta.tableName("items") == "beta_items")
        let identifiers = try database.writer.read { db in
            try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
        }
        #expect(
            identifiers == [
                "alpha/v1", "alpha/v2", "beta/v1", "beta/v2", "engage/damaged-rows-v1", "engage/kv-v1", "engage/queue-v1",
                "engage/queue-v2-destinations", "engage/queue-v3-insert-bytes",
            ])
        // Re-opening a namespace with an older, shorter list is fine too.
        _ = try database.namespace("beta", migrations: [Self.createItems("beta", runs: runs)])
        _ = try database.namespace("beta")
        #expect(runs.value.count == 4)
    }

    @Test func migrationsRunOnceAcrossCallsAndReopens() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let runs = Locked<[String]>([])
        let migrations = [Self.createItems("shop", runs: runs), Self.addColumn("shop", runs: runs)]
        do {
            let database = try EngageDatabase(location: .directory(directory.path))
            _ = try database.namespace("shop", migrations: migrations)
            _ = try database.namespace("shop", migrations: migrations)
            try database.writer.write { db in
                try db.execute(sql: "INSERT INTO shop_items (title, note) VALUES ('kept', 'n')")
            }
            try database.close()
        }
        let reopened = try EngageDatabase(location: .directory(directory.path))
        _ = try reopened.namespace("shop", migrations: migrations)
        #expect(runs.value == ["shop/v1", "shop/v2"])
        let count = try reopened.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM shop_items") }
        #expect(count == 1)
        #expect(
            try reopened.appliedMigrations(namespace: "engage") == [
                "kv-v1", "queue-v1", "damaged-rows-v1", "queue-v2-destinations", "queue-v3-insert-bytes",
            ])
    }

    @Test func aFailingMigrationRollsBackAndNamesItself() throws {
        let database = try EngageDatabase(location: .inMemory)
        let runs = Locked<[String]>([])
        struct Boom: Error {}
        let failing = StorageMigration("v2-broken") { db in
            try db.execute(sql: "CREATE TABLE shop_extra (id INTEGER PRIMARY KEY)")
            try db.execute(sql: "INSERT INTO shop_items (title) VALUES ('half-done')")
            throw Boom()
        }
        let error = expectEngageError(.storage) {
            _ = try database.namespace("shop", migrations: [Self.createItems("shop", runs: runs), failing])
        }
        #expect(error?.message.contains("'shop'") == true)
        #expect(error?.message.contains("'v2-broken'") == true)
        #expect(error?.underlyingError is Boom)
        #expect(try database.appliedMigrations(namespace: "shop") == ["v1"])
        let (extraExists, rows) = try database.writer.read { db in
            (try db.tableExists("shop_extra"), try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM shop_items"))
        }
        #expect(!extraExists)
        #expect(rows == 0)

        // Fixed in a later release: the fixed migration runs; v1 does not run again.
        let fixed = StorageMigration("v2-broken") { db in
            try db.execute(sql: "CREATE TABLE shop_extra (id INTEGER PRIMARY KEY)")
        }
        _ = try database.namespace("shop", migrations: [Self.createItems("shop", runs: runs), fixed])
        #expect(try database.appliedMigrations(namespace: "shop") == ["v1", "v2-broken"])
        #expect(runs.value == ["shop/v1"])
    }

    @Test func badMigrationListsAreRefusedWithoutCrashing() throws {
        let database = try EngageDatabase(location: .inMemory)
        let noop = StorageMigration("v1") { _ in }
        expectEngageError(.invalidInput) { _ = try database.namespace("shop", migrations: [noop, noop]) }
        expectEngageError(.invalidInput) { _ = try database.namespace("shop", migrations: [StorageMigration("") { _ in }]) }
        expectEngageError(.invalidInput) { _ = try database.namespace("shop", migrations: [StorageMigration("a/b") { _ in }]) }
        #expect(try database.appliedMigrations(namespace: "shop") == [])
    }

    @Test(
        "Invalid namespace names are refused",
        arguments: [
            "", "Shop", "1shop", "shop/x", "shop.x", "_shop", "sh op", String(repeating: "a", count: 65),
        ])
    func invalidNamespaceNames(name: String) throws {
        let database = try EngageDatabase(location: .inMemory)
        expectEngageError(.invalidInput) { _ = try database.namespace(name) }
    }

    @Test func coreNamespaceIsReservedForMigrations() throws {
        let database = try EngageDatabase(location: .inMemory)
        expectEngageError(.invalidInput) {
            _ = try database.namespace("engage", migrations: [StorageMigration("kv-v1") { _ in }])
        }
        let core = try database.namespace("engage")
        try core.setData(Data([1]), forKey: "k")
        #expect(try database.coreStorage().data(forKey: "k") == Data([1]))
        #expect(try database.namespace(String(repeating: "a", count: 64)).name.count == 64)
    }
}
