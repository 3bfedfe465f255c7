import Crypto
@_spi(EngageProvider) import EngageSandbox
import Foundation
import Hummingbird
@_spi(EngageProvider) import EngageCore

/// A local directory source, serving each network's directory in two shapes: the self-hosted feed (a
/// manifest with timestamp, SHA-256, size and archive name, and a plain zip holding `explore.db`), and
/// the Dash wallet's Firebase Storage objects (metadata JSON with `Data-Timestamp` and `Data-Checksum`,
/// and a WinZip-AES encrypted zip whose password is the database's CRC-32C), in the Dash wallet's bucket
/// and object names (`dashWalletBucket`, `dashWalletObject(for:)`).
///
/// Routes, relative to `http://127.0.0.1:<port>/explore-feed` (for Firebase Storage, the endpoint):
///
/// | route | behaviour |
/// |---|---|
/// | `GET /<network>/manifest.json` | the network's manifest (``Manifest``); 404 before anything is published |
/// | `GET /<network>/<archive>` | the archive's bytes, or a damaged copy while a ``DownloadFault`` is armed |
/// | `GET /v0/b/<bucket>/o/<object>` | the object's metadata as Firebase Storage answers it; 404 for an unknown object |
/// | `GET /v0/b/<bucket>/o/<object>?alt=media` | the encrypted archive's bytes (faults as above) |
///
/// ```swift
/// let feed = try ExploreFeedEmulator(folder: temporaryFolder)
/// try feed.publishGenerated(.init(seed: 7, rows: 5_000), network: .mainnet, timestamp: 1_763_700_000_000)
/// let host = SandboxHost(emulators: [feed])
/// ```
public final class ExploreFeedEmulator: Emulator {
    /// The Dash networks the feed publishes a directory for, by the names in its routes (`mainnet`,
    /// `testnet`) and in the Dash wallet's object names. The feed's own: an emulator does not borrow its
    /// client's types, so a client that names a network differently fails against it.
    public enum Network: String, Sendable, Hashable, CaseIterable {
        /// The production network.
        case mainnet
        /// The test network.
        case testnet
    }

    /// How the next archive downloads are damaged.
    public enum DownloadFault: Sendable, Hashable {
        /// Only the first half of the bytes is served (a complete response, shorter than the manifest says).
        case truncated
        /// The size is right but bytes in the middle are flipped (the checksum no longer matches).
        case corrupted
    }

    /// The path prefix, `explore-feed` unless another id was given.
    public let id: String
    /// Where published archives are kept.
    public let folder: URL

    /// What `<network>/manifest.json` answers, written by the emulator's own type (the client reads it
    /// with its own, held to the recorded manifest in `Development/Providers/Explore/Tests/Fixtures/Feed`).
    package struct Manifest: Encodable, Sendable, Hashable {
        /// The data's time, in milliseconds since 1970.
        package var timestamp: Int64
        /// The archive's SHA-256, 64 lowercase hex digits.
        package var checksum: String
        /// The archive's size in bytes.
        package var size: Int64
        /// The archive's file name, beside the manifest.
        package var archive: String
    }

    private struct Publication {
        var manifest: Manifest
        var archiveURL: URL
        /// The same directory as a Firebase Storage object, when it was published from a database.
        var object: StorageObject?
    }

    /// A Firebase Storage object: the encrypted archive and what its metadata says.
    struct StorageObject: Sendable {
        var archiveURL: URL
        var size: Int64
        var md5Base64: String
        var timestamp: Int64
        var checksum: String
    }

    /// A directory to generate and publish when its network is first asked for.
    private struct PendingDirectory {
        var options: ExploreDirectoryGenerator.Options
        var timestamp: Int64
    }

    private struct State {
        var publications: [Network: Publication] = [:]
        var pending: [Network: PendingDirectory] = [:]
        var faults: [Network: [DownloadFault]] = [:]
        var downloads: [Network: Int] = [:]
    }

    private let state = Locked(State())
    /// Held while a pending directory is generated, so that concurrent first requests generate it once.
    private let generation = Locked(())
    /// Whether the folder is the feed's own temporary one, removed when the feed is released.
    private let ownsFolder: Bool

    /// A feed keeping its archives in `folder` (created if needed; left in place).
    public convenience init(id: String = "explore-feed", folder: URL) throws {
        try self.init(id: id, folder: folder, ownsFolder: false)
    }

    private init(id: String, folder: URL, ownsFolder: Bool) throws {
        self.id = id
        self.folder = folder
        self.ownsFolder = ownsFolder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        if ownsFolder { try? FileManager.default.removeItem(at: folder) }
    }

    /// A feed in a fresh temporary folder with generated directories for both networks (mainnet:
    /// `mainnetRows` rows, seed 42; testnet: a quarter of that, seed 43), as `engage-sandbox` and
    /// `engage-demo` serve it.
    ///
    /// Each directory is generated and published when its network is first asked for, so starting a
    /// sandbox costs nothing until a client syncs; the temporary folder is removed with the feed.
    public static func withGeneratedDirectories(
        mainnetRows: Int = 3_000, timestamp: Int64 = 1_763_700_000_000
    ) throws -> ExploreFeedEmulator {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("explore-feed-\(UUID().uuidString.prefix(8))")
        let feed = try ExploreFeedEmulator(id: "explore-feed", folder: folder, ownsFolder: true)
        feed.state.withLock { state in
            state.pending[.mainnet] = PendingDirectory(options: .init(seed: 42, rows: mainnetRows), timestamp: timestamp)
            state.pending[.testnet] = PendingDirectory(options: .init(seed: 43, rows: max(1, mainnetRows / 4)), timestamp: timestamp)
        }
        return feed
    }

    /// The manifest published for `network` (generating a pending directory first), if any.
    /// - Throws: When a pending directory cannot be generated or zipped.
    package func manifest(for network: Network) throws -> Manifest? {
        try publication(for: network)?.manifest
    }

    /// How many archive downloads `network` has served.
    public func downloadCount(for network: Network) -> Int {
        state.withLock { $0.downloads[network] ?? 0 }
    }

    /// Damages the next `times` archive downloads of `network` with `fault`.
    public func inject(_ fault: DownloadFault, network: Network, times: Int = 1) {
        state.withLock { $0.faults[network, default: []] += Array(repeating: fault, count: max(0, times)) }
    }

    /// Publishes an archive as it is (a zip, or anything else to test a bad archive) for `network`.
    @discardableResult
    package func publish(archive data: Data, network: Network, timestamp: Int64) throws -> Manifest {
        let name = "explore-\(network.rawValue)-\(timestamp).zip"
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        let manifest = Manifest(
            timestamp: timestamp, checksum: SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined(), size: Int64(data.count),
            archive: name)
        state.withLock { state in
            state.publications[network] = Publication(manifest: manifest, archiveURL: url)
            state.pending[network] = nil
        }
        return manifest
    }

    /// Zips the file at `databaseURL` as `explore.db` and publishes it for `network`, in both shapes.
    @discardableResult
    package func publish(databaseAt databaseURL: URL, network: Network, timestamp: Int64) throws -> Manifest {
        let manifest = try publish(
            archive: try ExploreFeedArchiver.zip(databaseAt: databaseURL, in: folder), network: network, timestamp: timestamp)
        let encrypted = try ExploreFeedArchiver.encryptedZip(database: try Data(contentsOf: databaseURL), timestamp: timestamp)
        try publishObject(archive: encrypted.data, network: network, timestamp: timestamp, checksum: encrypted.checksum)
        return manifest
    }

    /// Publishes `archive` as `network`'s Firebase Storage object with the metadata `timestamp` and
    /// `checksum` as they are (any bytes and values, to test what a client refuses). The feed's
    /// publication of `network` must exist.
    package func publishObject(archive: Data, network: Network, timestamp: Int64, checksum: String) throws {
        let url = folder.appendingPathComponent("object-\(network.rawValue)-\(timestamp)-\(UUID().uuidString.prefix(8)).zip")
        try archive.write(to: url)
        let object = StorageObject(
            archiveURL: url, size: Int64(archive.count), md5Base64: Data(Insecure.MD5.hash(data: archive)).base64EncodedString(),
            timestamp: timestamp, checksum: checksum)
        state.withLock { $0.publications[network]?.object = object }
    }

    /// The Firebase Storage object published for `network` (generating a pending directory first): its
    /// timestamp and checksum metadata, if any.
    package func storageObject(for network: Network) throws -> (timestamp: Int64, checksum: String, size: Int64)? {
        try publication(for: network)?.object.map { ($0.timestamp, $0.checksum, $0.size) }
    }

    /// Generates a directory with `options` and publishes it for `network`.
    @discardableResult
    package func publishGenerated(
        _ options: ExploreDirectoryGenerator.Options, network: Network, timestamp: Int64
    ) throws -> Manifest {
        let databaseURL = folder.appendingPathComponent("generated-\(UUID().uuidString.prefix(8)).db")
        defer { try? FileManager.default.removeItem(at: databaseURL) }
        try ExploreDirectoryGenerator(options: options).write(to: databaseURL.path)
        return try publish(databaseAt: databaseURL, network: network, timestamp: timestamp)
    }

    /// The Firebase Storage bucket the Dash wallet syncs its directory from (its `explore-dash-sync`
    /// generator's upload target, written down in docs/providers/explore.md).
    static let dashWalletBucket = "dash-wallet-firebase.appspot.com"

    /// The object in `dashWalletBucket` that holds `network`'s directory.
    static func dashWalletObject(for network: Network) -> String {
        switch network {
        case .mainnet: "explore/explore-v4.db"
        case .testnet: "explore/explore-v4-testnet.db"
        }
    }

    /// Adds the routes listed in the type's documentation.
    public func addRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
        group.get(":network/manifest.json") { _, context in
            guard let publication = try self.publication(context) else {
                return SandboxResponse.error(.notFound, code: "not_published")
            }
            return try SandboxResponse.json(publication.manifest)
        }
        group.get(":network/:archive") { _, context in
            guard let network = context.parameters.get("network").flatMap(Network.init(rawValue:)),
                let publication = try self.publication(context), context.parameters.get("archive") == publication.manifest.archive
            else {
                return SandboxResponse.error(.notFound, code: "no_such_archive")
            }
            return try self.download(publication.archiveURL, network: network)
        }
        group.get("v0/b/:bucket/o/:object") { request, context in
            let bucket = context.parameters.get("bucket")?.removingPercentEncoding
            let name = context.parameters.get("object")?.removingPercentEncoding
            guard bucket == Self.dashWalletBucket,
                let network = Network.allCases.first(where: { Self.dashWalletObject(for: $0) == name }),
                let object = try self.publication(for: network)?.object
            else {
                // Firebase Storage's answer for an object that does not exist.
                return try SandboxResponse.json(
                    ["error": FirebaseError(code: 404, message: "Not Found.  Could not get object", status: "GET_OBJECT")],
                    status: .notFound)
            }
            if request.uri.queryParameters.get("alt") == "media" {
                return try self.download(object.archiveURL, network: network)
            }
            return try SandboxResponse.json(
                StorageMetadata(
                    name: Self.dashWalletObject(for: network), bucket: Self.dashWalletBucket, size: String(object.size),
                    md5Hash: object.md5Base64,
                    metadata: ["Data-Timestamp": String(object.timestamp), "Data-Checksum": object.checksum]
                ))
        }
    }

    /// The bytes of an archive download of `network`, damaged while a fault is armed.
    private func download(_ archiveURL: URL, network: Network) throws -> Response {
        var bytes = try Data(contentsOf: archiveURL)
        let fault = state.withLock { state -> DownloadFault? in
            state.downloads[network, default: 0] += 1
            return state.faults[network]?.isEmpty == false ? state.faults[network]?.removeFirst() : nil
        }
        switch fault {
        case .truncated: bytes = bytes.prefix(bytes.count / 2)
        case .corrupted:
            let middle = bytes.count / 2
            for index in middle..<min(bytes.count, middle + 64) { bytes[index] ^= 0xFF }
        case nil: break
        }
        return SandboxResponse.raw(bytes, headers: [.contentType: "application/zip"])
    }

    /// Firebase Storage's error body (`{"error": {…}}`).
    private struct FirebaseError: Encodable {
        var code: Int
        var message: String
        var status: String
    }

    /// The part of Firebase Storage's object metadata a client reads (it also sends `generation`,
    /// `contentType`, `timeCreated`, `updated`, `downloadTokens`…).
    private struct StorageMetadata: Encodable {
        var kind = "storage#object"
        var name: String
        var bucket: String
        var contentType = "application/octet-stream"
        var size: String
        var md5Hash: String
        var metadata: [String: String]
    }

    private func publication(_ context: SandboxRequestContext) throws -> Publication? {
        guard let network = context.parameters.get("network").flatMap(Network.init(rawValue:)) else { return nil }
        return try publication(for: network)
    }

    /// The publication of `network`, generating its pending directory on the first call.
    private func publication(for network: Network) throws -> Publication? {
        if let published = state.withLock({ $0.publications[network] }) { return published }
        return try generation.withLock { _ in
            let (published, pending) = state.withLock { ($0.publications[network], $0.pending[network]) }
            if let published { return published }
            guard let pending else { return nil }
            try publishGenerated(pending.options, network: network, timestamp: pending.timestamp)
            return state.withLock { state in
                state.pending[network] = nil
                return state.publications[network]
            }
        }
    }
}

extension ExploreFeedEmulator {
    /// One network's directory as the sandbox's state view shows it (`ExploreFeedEmulator+Inspection.swift`).
    struct NetworkSnapshot: Sendable {
        var network: Network
        /// The published manifest, if any.
        var manifest: Manifest?
        /// The Firebase Storage object, if any.
        var object: StorageObject?
        /// The generator options and timestamp of a directory generated on the network's first request.
        var pending: (options: ExploreDirectoryGenerator.Options, timestamp: Int64)?
        var downloads: Int
        var armedFaults: [DownloadFault]
    }

    /// Every network's publication, pending directory, download count and armed faults, read without
    /// generating anything.
    func networkSnapshots() -> [NetworkSnapshot] {
        state.withLock { state in
            Network.allCases.map { network in
                NetworkSnapshot(
                    network: network, manifest: state.publications[network]?.manifest, object: state.publications[network]?.object,
                    pending: state.pending[network].map { (options: $0.options, timestamp: $0.timestamp) },
                    downloads: state.downloads[network] ?? 0,
                    armedFaults: state.faults[network] ?? []
                )
            }
        }
    }

    /// Forgets the download counts and the armed faults; published and pending directories stay.
    func forgetDownloads() {
        state.withLock { state in
            state.downloads.removeAll()
            state.faults.removeAll()
        }
    }
}
