import Crypto
@_spi(EngageProvider) @testable import EngageCore
import Foundation
import EngageTestTraits
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

private func bytes(_ key: SymmetricKey) -> [UInt8] {
    key.withUnsafeBytes { Array($0) }
}

private func permissions(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}

@Suite("SecretStore: in memory and static", .bounded)
struct SecretStoreMemoryTests {
    @Test func inMemoryStoreCreatesOnceAndDeletes() throws {
        let store = InMemorySecretStore()
        let key = try store.key(named: "engage.storage")
        #expect(key.bitCount == 256)
        #expect(bytes(try store.key(named: "engage.storage")) == bytes(key))
        #expect(bytes(try store.key(named: "other")) != bytes(key))
        try store.deleteKey(named: "engage.storage")
        #expect(bytes(try store.key(named: "engage.storage")) != bytes(key))
    }

    @Test func staticStoreReturnsTheInjectedKey() throws {
        let key = SymmetricKey(size: .bits256)
        let store = try StaticSecretStore(key: key)
        #expect(bytes(try store.key(named: "a")) == bytes(key))
        #expect(bytes(try store.key(named: "b")) == bytes(key))
        try store.deleteKey(named: "a")
        #expect(bytes(try store.key(named: "a")) == bytes(key))
    }

    @Test("Invalid key names are refused", arguments: ["", "../escape", "a/b", "..", ".hidden", "x\u{0}y", "é"])
    func invalidNamesAreRefused(name: String) throws {
        expectEngageError(.invalidInput) { _ = try InMemorySecretStore().key(named: name) }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try KeyFileSecretStore(directory: directory.path)
        expectEngageError(.invalidInput) { _ = try store.key(named: name) }
        expectEngageError(.invalidInput) { try store.deleteKey(named: name) }
    }

    @Test func platformDefaultIsInMemoryForInMemoryStorage() throws {
        let store = try SecretStores.platformDefault(appID: "com.example.app", location: .inMemory)
        #expect(store is InMemorySecretStore)
        expectEngageError(.invalidConfiguration) {
            _ = try SecretStores.platformDefault(appID: "../x", location: .inMemory)
        }
    }

    #if !canImport(Security)
        @Test func platformDefaultOnLinuxKeepsTheKeyFileOutsideTheDatabaseFolder() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let store = try SecretStores.platformDefault(
                appID: "com.example.app", location: .directory(directory.appending("data"))
            )
            let keyFiles = try #require(store as? KeyFileSecretStore)
            #expect(keyFiles.directory == directory.appending("data.keys"))
            #expect(keyFiles.legacyDirectory == directory.appending("data/keys"))

            let fromEnvironment = try SecretStores.platformDefault(
                appID: "com.example.app", location: .applicationDefault(appID: "com.example.app"),
                environment: ["XDG_DATA_HOME": directory.appending("share"), "XDG_STATE_HOME": directory.appending("state")]
            )
            #expect((fromEnvironment as? KeyFileSecretStore)?.directory == directory.appending("state/com.example.app/keys"))
            let fromHome = try SecretStores.platformDefault(
                appID: "com.example.app", location: .applicationDefault(appID: "com.example.app"), environment: ["HOME": directory.path]
            )
            #expect((fromHome as? KeyFileSecretStore)?.directory == directory.appending(".local/state/com.example.app/keys"))
        }

        /// An app updated from a version that kept its key in `<data>/keys`: the key moves out once, the
        /// values sealed with it still open, and the data folder no longer holds a key.
        @Test func aKeyKeptInTheDatabaseFolderMovesOutAndStillOpens() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let data = directory.appending("data")
            let old = try KeyFileSecretStore(directory: data + "/keys")
            let sealed = try Sealer(key: old.key(named: "engage.storage")).seal(Data("tokens".utf8), context: Data("c".utf8))

            let store = try #require(
                try SecretStores.platformDefault(appID: "com.example.app", location: .directory(data)) as? KeyFileSecretStore)
            let moved = try Sealer(key: store.key(named: "engage.storage"))
            #expect(try moved.open(sealed, context: Data("c".utf8)) == Data("tokens".utf8))
            #expect(try FileManager.default.contentsOfDirectory(atPath: data + "/keys").isEmpty)
            #expect(try permissions(store.path(forKeyNamed: "engage.storage")) == 0o600)
            // A relaunch reads it from its new place.
            let again = try #require(
                try SecretStores.platformDefault(appID: "com.example.app", location: .directory(data)) as? KeyFileSecretStore)
            #expect(try Sealer(key: again.key(named: "engage.storage")).open(sealed, context: Data("c".utf8)) == Data("tokens".utf8))
        }
    #endif
}

@Suite("SecretStore: key files", .bounded)
struct SecretStoreKeyFileTests {
    @Test func keyFileIsPrivateAndStable() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let keysPath = directory.appending("nested/keys")
        let store = try KeyFileSecretStore(directory: keysPath)
        let key = try store.key(named: "engage.storage")
        let path = store.path(forKeyNamed: "engage.storage")

        #expect(try permissions(keysPath) == 0o700)
        #expect(try permissions(path) == 0o600)
        let fileBytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(fileBytes == bytes(key))

        // A new store over the same directory (a relaunch) gets the same key.
        let reopened = try KeyFileSecretStore(directory: keysPath)
        #expect(bytes(try reopened.key(named: "engage.storage")) == bytes(key))
        // No temporary files are left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: keysPath) == ["engage.storage.key"])
    }

    @Test func deletingAKeyCreatesAFreshOne() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try KeyFileSecretStore(directory: directory.path)
        let key = try store.key(named: "k")
        try store.deleteKey(named: "k")
        #expect(!FileManager.default.fileExists(atPath: store.path(forKeyNamed: "k")))
        try store.deleteKey(named: "k")  // deleting a missing key is fine
        #expect(bytes(try store.key(named: "k")) != bytes(key))
    }

    @Test("A key file of the wrong size is refused and left untouched", arguments: [0, 16, 31, 33, 64])
    func wrongSizeIsRefused(size: Int) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try KeyFileSecretStore(directory: directory.path)
        let path = store.path(forKeyNamed: "engage.storage")
        let content = Data(repeating: 7, count: size)
        #expect(FileManager.default.createFile(atPath: path, contents: content, attributes: [.posixPermissions: 0o600]))

        let error = expectEngageError(.crypto) { _ = try store.key(named: "engage.storage") }
        #expect(error?.message.contains(path) == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == content)
    }

    @Test("A group- or world-accessible key file is refused", arguments: [0o640, 0o604, 0o660, 0o644])
    func insecurePermissionsAreRefused(mode: Int) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try KeyFileSecretStore(directory: directory.path)
        let path = store.path(forKeyNamed: "engage.storage")
        let content = Data(repeating: 1, count: 32)
        #expect(FileManager.default.createFile(atPath: path, contents: content))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)

        let error = expectEngageError(.crypto) { _ = try store.key(named: "engage.storage") }
        #expect(error?.message.contains(String(mode, radix: 8)) == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == content)
        #expect(try permissions(path) == mode)
    }

    @Test func symlinkedKeyFileIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let target = directory.appending("elsewhere.key")
        #expect(
            FileManager.default.createFile(
                atPath: target, contents: Data(repeating: 2, count: 32), attributes: [.posixPermissions: 0o600]
            ))
        let store = try KeyFileSecretStore(directory: directory.appending("keys"))
        try FileManager.default.createSymbolicLink(atPath: store.path(forKeyNamed: "k"), withDestinationPath: target)
        expectEngageError(.storage) { _ = try store.key(named: "k") }
    }

    @Test func concurrentCreationYieldsOneKey() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path
        // Separate store instances have separate caches, like separate processes.
        let keys = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<16 {
                group.addTask {
                    let store = try KeyFileSecretStore(directory: path)
                    return bytes(try store.key(named: "shared"))
                }
            }
            return try await group.reduce(into: [[UInt8]]()) { $0.append($1) }
        }
        #expect(keys.count == 16)
        #expect(Set(keys).count == 1)
        let onDisk = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path + "/shared.key")))
        #expect(keys.first == onDisk)
        #expect(try FileManager.default.contentsOfDirectory(atPath: path) == ["shared.key"])
    }

    @Test func directoryPathThatIsAFileIsReported() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.appending("file")
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        expectEngageError(.storage) { _ = try KeyFileSecretStore(directory: file) }
        expectEngageError(.storage) { _ = try KeyFileSecretStore(directory: file + "/keys") }
    }
}
