@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageExploreCTX
@_spi(EngageProvider) @testable import EngageExploreGiftCards
@_spi(EngageProvider) @testable import EngageTesting
import ExploreEmulator
import Foundation
import EngageTestTraits
import Testing

/// Syncing from the Dash wallet's own source, Firebase Storage objects, served by the feed emulator on
/// 127.0.0.1: metadata first, the encrypted archive only when newer, every check, the installed
/// directory kept on any failure.
@Suite("Explore sync from Firebase Storage", .serialized, .bounded)
struct ExploreFirebaseStorageTests {
    private func firebase(_ harness: ExploreFeedHarness) -> ExploreConfiguration {
        harness.exploreConfiguration {
            $0.feedURL = nil
            $0.firebaseStorage = ExploreFirebaseStorage(endpoint: harness.feedURL)
        }
    }

    @Test("a sync reads the object's metadata, downloads and decrypts the archive, checks its CRC-32C and installs it")
    func installThenUpToDate() async throws {
        let harness = try await ExploreFeedHarness()
        try harness.publish(timestamp: 1_000)
        let object = try #require(try harness.feed.storageObject(for: .mainnet))
        let (engage, provider) = try await harness.start(firebase(harness))

        let reports = Locked<[ExploreSyncProgress]>([])
        let outcome = try await provider.sync { progress in reports.withLock { $0.append(progress) } }
        #expect(outcome == .installed(timestamp: 1_000, previousTimestamp: nil, archiveBytes: object.size))
        let phases = reports.withLock { $0 }.map(\.phase).reduce(into: [ExploreSyncProgress.Phase]()) { if $0.last != $1 { $0.append($1) } }
        #expect(phases == [.checking, .downloading, .verifying, .installing, .finished])

        let (fixture, _) = try ExploreFixture.shared(rows: 2_000, seed: 21)
        let expected = try fixture.directory.merchants(ExploreMerchantQuery()).totalCount
        #expect(try await provider.merchants(ExploreMerchantQuery()).totalCount == expected)
        // The state records the published CRC-32C, which is the unpacked database's.
        var crc = CRC32C()
        crc.update(try Data(contentsOf: URL(fileURLWithPath: fixture.path)))
        let state = try #require(try await provider.syncState())
        #expect(state.timestamp == 1_000 && state.checksum == object.checksum && object.checksum == crc.hex)

        #expect(try await provider.sync() == .upToDate(timestamp: 1_000))
        #expect(harness.feed.downloadCount(for: .mainnet) == 1)
        // A newer publication is downloaded; the directory's timestamp follows.
        try harness.publish(rows: 1_000, seed: 22, timestamp: 2_000)
        #expect(
            try await provider.sync()
                == .installed(
                    timestamp: 2_000, previousTimestamp: 1_000,
                    archiveBytes: try #require(try harness.feed.storageObject(for: .mainnet)).size))
        #expect(harness.feed.downloadCount(for: .mainnet) == 2)
        #expect(harness.leftovers().isEmpty)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("each network syncs its own object (explore-v4.db, explore-v4-testnet.db)")
    func perNetworkObjects() async throws {
        let harness = try await ExploreFeedHarness()
        try harness.publish(rows: 1_000, seed: 3, network: .testnet, timestamp: 5_000)
        let explore = harness.exploreConfiguration {
            $0.feedURL = nil
            $0.network = .testnet
            $0.firebaseStorage = ExploreFirebaseStorage(endpoint: harness.feedURL)
        }
        let (engage, provider) = try await harness.start(explore)
        #expect(
            try await provider.sync()
                == .installed(
                    timestamp: 5_000, previousTimestamp: nil, archiveBytes: try #require(try harness.feed.storageObject(for: .testnet)).size
                ))
        #expect(harness.feed.downloadCount(for: .testnet) == 1 && harness.feed.downloadCount(for: .mainnet) == 0)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("an archive that does not match its metadata is refused, and the installed directory stays")
    func mismatchesAreRefused() async throws {
        let harness = try await ExploreFeedHarness()
        try harness.publish(timestamp: 1_000)
        let (engage, provider) = try await harness.start(firebase(harness))
        _ = try await provider.sync()
        let before = try await provider.merchants(ExploreMerchantQuery()).totalCount
        let (other, _) = try ExploreFixture.shared(rows: 1_000, seed: 22)
        let database = try Data(contentsOf: URL(fileURLWithPath: other.path))
        let good = try ExploreFeedArchiver.encryptedZip(database: database, timestamp: 2_000)

        let cases: [(archive: Data, checksum: String, expected: String)] = [
            // Metadata naming another checksum: the password it gives does not open the archive.
            (good.data, "1234abcd", "password does not open"),
            // Encrypted with a password that is not the database's CRC-32C (the metadata repeats it).
            (try ExploreFeedArchiver.encryptedZip(database: database, timestamp: 2_000, password: "1234abcd").data, "1234abcd", "CRC-32C"),
            // The comment names another timestamp than the metadata.
            (try ExploreFeedArchiver.encryptedZip(database: database, timestamp: 1_999).data, good.checksum, "comment"),
        ]
        for (archive, checksum, expected) in cases {
            try harness.feed.publishObject(archive: archive, network: .mainnet, timestamp: 2_000, checksum: checksum)
            let error = await #expect(throws: EngageError.self) { try await provider.sync() }
            #expect(error?.code == .exploreDownloadInvalid)
            #expect(error?.message.contains(expected) == true, "\(expected): \(error?.message ?? "")")
            #expect(try await provider.syncState()?.timestamp == 1_000)
            #expect(try await provider.merchants(ExploreMerchantQuery()).totalCount == before)
        }
        #expect(harness.leftovers().isEmpty)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("a corrupted download fails Firebase's MD5, a truncated one its size; the next sync installs")
    func damagedDownloads() async throws {
        let harness = try await ExploreFeedHarness()
        try harness.publish(timestamp: 1_000)
        let (engage, provider) = try await harness.start(firebase(harness))
        harness.feed.inject(.corrupted, network: .mainnet)
        let corrupted = await #expect(throws: EngageError.self) { try await provider.sync() }
        #expect(corrupted?.message.contains("MD5") == true && corrupted?.isRetryable == true, "\(corrupted?.message ?? "")")
        harness.feed.inject(.truncated, network: .mainnet)
        let truncated = await #expect(throws: EngageError.self) { try await provider.sync() }
        #expect(truncated?.code == .exploreDownloadInvalid && truncated?.isRetryable == true)
        #expect(try await provider.syncState() == nil)
        #expect(
            try await provider.sync()
                == .installed(
                    timestamp: 1_000, previousTimestamp: nil, archiveBytes: try #require(try harness.feed.storageObject(for: .mainnet)).size
                ))
        await engage.shutdown()
        await harness.stop()
    }

    @Test("an unknown object is a 404 with Firebase's message; a sync says so")
    func unknownObject() async throws {
        let harness = try await ExploreFeedHarness()
        let explore = harness.exploreConfiguration {
            $0.feedURL = nil
            $0.firebaseStorage = ExploreFirebaseStorage(mainnetObject: "explore/explore-v9.db", endpoint: harness.feedURL)
        }
        let (engage, provider) = try await harness.start(explore)
        let error = await #expect(throws: EngageError.self) { try await provider.sync() }
        #expect(error?.httpStatus == 404)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("object metadata: size as a string or a number; missing or unusable values are clear errors")
    func metadataDecoding() throws {
        func object(_ json: String) throws -> ExploreStorageObject {
            try JSONDecoder().decode(ExploreStorageObject.self, from: Data(json.utf8))
        }
        let metadata = #""metadata": {"Data-Timestamp": "1763700000000", "Data-Checksum": "e3069283"}"#
        let text = try object(#"{"name": "explore/explore-v4.db", "size": "4096", "md5Hash": "1B2M2Y8AsgTpgAmY7PhCfg==", \#(metadata)}"#)
        #expect(text.size == 4096 && text.md5Hash == "1B2M2Y8AsgTpgAmY7PhCfg==")
        let release = try text.release(maxBytes: 1 << 20)
        #expect(release.timestamp == 1_763_700_000_000 && release.checksum == "e3069283")
        #expect(try object(#"{"name": "a", "size": 4096, \#(metadata)}"#).size == 4096)
        #expect(throws: DecodingError.self) { try object(#"{"name": "a", "size": "4 KB", \#(metadata)}"#) }

        let refused: [(String, String)] = [
            (#"{"name": "a", "size": "4096"}"#, "Data-Timestamp"),
            (#"{"name": "a", "size": "4096", "metadata": {"Data-Timestamp": "-5", "Data-Checksum": "e3069283"}}"#, "Data-Timestamp"),
            (#"{"name": "a", "size": "4096", "metadata": {"Data-Timestamp": "1", "Data-Checksum": "not-hex"}}"#, "Data-Checksum"),
            (#"{"name": "a", "size": "4096", "metadata": {"Data-Timestamp": "1", "Data-Checksum": "123456789"}}"#, "Data-Checksum"),
            (#"{"name": "a", "size": "-1", \#(metadata)}"#, "size -1"),
            (#"{"name": "a", "size": "99999999999", \#(metadata)}"#, "over the limit"),
            (#"{"name": "a", "size": "4096", "md5Hash": "short", \#(metadata)}"#, "md5Hash"),
        ]
        for (json, expected) in refused {
            let error = #expect(throws: EngageError.self) { try object(json).release(maxBytes: 1 << 20) }
            #expect(error?.code == .exploreDownloadInvalid && error?.message.contains(expected) == true, "\(json): \(error?.message ?? "")")
        }
    }

    @Test("a Firebase object URL gives the source; other URLs are refused; the configuration is validated")
    func objectURLsAndValidation() throws {
        let url = try #require(
            URL(string: "http://127.0.0.1:9199/explore-feed/v0/b/dash-wallet-firebase.appspot.com/o/explore%2Fexplore-v4-testnet.db"))
        let source = try ExploreFirebaseStorage(objectURL: url, network: .testnet)
        #expect(source.bucket == "dash-wallet-firebase.appspot.com" && source.testnetObject == "explore/explore-v4-testnet.db")
        #expect(source.mainnetObject == ExploreFirebaseStorage.dashWallet.mainnetObject)
        #expect(source.endpoint?.absoluteString == "http://127.0.0.1:9199/explore-feed")
        #expect(source.objectPath(for: .testnet) == "v0/b/dash-wallet-firebase.appspot.com/o/explore%2Fexplore-v4-testnet.db")
        let official = try ExploreFirebaseStorage(
            objectURL: try #require(URL(string: "https://firebasestorage.googleapis.com/v0/b/b.appspot.com/o/x%2Fy.db?alt=media")),
            network: .mainnet)
        #expect(official.endpoint?.absoluteString == "https://firebasestorage.googleapis.com" && official.mainnetObject == "x/y.db")
        for bad in [
            "ftp://host/v0/b/b/o/x", "https://host/v0/b/b/x", "https://host/v0/b//o/x", "https://host/v0/b/b/o/", "https://host/other",
        ] {
            #expect(throws: EngageError.self, "\(bad)") {
                try ExploreFirebaseStorage(objectURL: try #require(URL(string: bad)), network: .mainnet)
            }
        }

        // A download link pasted with its token (and an unencoded slash) is refused without the token.
        let pasted = try #require(
            URL(string: "https://firebasestorage.googleapis.com/v0/b/b.appspot.com/o/explore/explore.db?alt=media&token=0f1e-SECRET"))
        let refusal = #expect(throws: EngageError.self) { try ExploreFirebaseStorage(objectURL: pasted, network: .mainnet) }
        #expect(refusal?.message.contains("0f1e-SECRET") == false, "\(refusal?.message ?? "")")

        var both = ExploreConfiguration(feedURL: url, firebaseStorage: .dashWallet)
        #expect(both.validationIssues().contains("set feedURL or firebaseStorage, not both"))
        both.feedURL = nil
        #expect(both.validationIssues().isEmpty)
        let hostile = ExploreConfiguration(
            firebaseStorage: ExploreFirebaseStorage(
                bucket: "Bucket With Spaces", mainnetObject: "explore/../secrets", testnetObject: "a\u{0}b"))
        #expect(hostile.validationIssues().count == 3)

        // Every key optional in JSON; the Dash wallet's values by default.
        let decoded = try JSONDecoder().decode(
            ExploreConfiguration.self, from: Data(#"{"firebaseStorage": {"endpoint": "http://127.0.0.1:9199"}}"#.utf8))
        #expect(decoded.firebaseStorage?.bucket == "dash-wallet-firebase.appspot.com" && decoded.firebaseStorage?.endpoint != nil)
        let again = try JSONDecoder().decode(ExploreConfiguration.self, from: try JSONEncoder().encode(decoded))
        #expect(again == decoded)
    }
}
