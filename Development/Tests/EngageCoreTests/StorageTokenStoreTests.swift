import Crypto
@_spi(EngageProvider) @testable import EngageCore
import Foundation
import GRDB
import EngageTestTraits
import Testing

@Suite("Storage: token stores", .bounded)
struct StorageTokenStoreTests {
    static let tokens = TokenPair(
        accessToken: "ACCESS-7f3a9c-secret-token-text",
        refreshToken: "REFRESH-b81d22-secret-token-text",
        expiresAt: Date(timeIntervalSince1970: 1_900_000_000.5)
    )

    @Test func inMemoryTokenStore() throws {
        let store = InMemoryTokenStore()
        #expect(try store.load() == nil)
        try store.save(Self.tokens)
        #expect(try store.load() == Self.tokens)
        try store.clear()
        #expect(try store.load() == nil)
    }

    @Test func sealedTokenStoreRoundTripsAndClears() throws {
        let database = try EngageDatabase(location: .inMemory)
        let sealer = try Sealer(store: InMemorySecretStore(), keyName: "engage.storage")
        let store = SealedTokenStore(namespace: try database.namespace("warply", sealer: sealer))
        #expect(try store.load() == nil)
        try store.save(Self.tokens)
        #expect(try store.load() == Self.tokens)
        let rotated = TokenPair(accessToken: "new", refreshToken: nil, expiresAt: nil)
        try store.save(rotated)
        #expect(try store.load() == rotated)
        try store.clear()
        #expect(try store.load() == nil)
    }

    @Test func sealedTokenStoreWithoutSealerFails() throws {
        let database = try EngageDatabase(location: .inMemory)
        let store = SealedTokenStore(namespace: try database.namespace("warply"))
        expectEngageError(.invalidConfiguration) { try store.save(Self.tokens) }
    }

    @Test func tokensPersistAcrossReopenAndNeverReachTheFileInClear() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dataPath = directory.appending("data")
        do {
            let database = try EngageDatabase(location: .directory(dataPath))
            let secrets = try KeyFileSecretStore(directory: dataPath + "/keys")
            let sealer = try Sealer(store: secrets, keyName: "engage.storage")
            let store = SealedTokenStore(namespace: try database.namespace("warply", sealer: sealer))
            try store.save(TokenPair(accessToken: "ACCESS-older-token-text", refreshToken: nil))
            try store.save(Self.tokens)
            // Move everything from the WAL into the main file, then inspect every file on disk.
            _ = try database.writer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
            let files = try FileManager.default.contentsOfDirectory(atPath: dataPath).filter { $0.hasPrefix("engage.sqlite") }
            var bytes = Data()
            for file in files { bytes += try Data(contentsOf: URL(fileURLWithPath: dataPath + "/" + file)) }
            #expect(bytes.range(of: Data("warply".utf8)) != nil)  // the row did reach the file
            for secret in ["ACCESS-7f3a9c", "REFRESH-b81d22", "ACCESS-older", "accessToken", "refreshToken"] {
                #expect(bytes.range(of: Data(secret.utf8)) == nil, "found \(secret) in the database files")
            }
            try database.close()
        }
        let reopened = try EngageDatabase(location: .directory(dataPath))
        let sealer = try Sealer(store: try KeyFileSecretStore(directory: dataPath + "/keys"), keyName: "engage.storage")
        let store = SealedTokenStore(namespace: try reopened.namespace("warply", sealer: sealer))
        #expect(try store.load() == Self.tokens)

        // With another key (a lost key file, a restore): the tokens do not open and read as absent (signed
        // out, never garbage, never an error on every launch); the new key stores the next session.
        let otherSealer = try Sealer(key: SymmetricKey(size: .bits256))
        let wrongKeyStore = SealedTokenStore(namespace: try reopened.namespace("warply", sealer: otherSealer))
        #expect(try wrongKeyStore.load() == nil)
        #expect(try wrongKeyStore.load() == nil)
        try wrongKeyStore.save(Self.tokens)
        #expect(try wrongKeyStore.load() == Self.tokens)
    }
}
