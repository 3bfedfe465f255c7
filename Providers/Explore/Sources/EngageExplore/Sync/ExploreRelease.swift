@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes

/// Where a network's directory is synced from, with the client that reaches it.
enum ExploreSyncSource: Sendable {
    /// A self-hosted feed: `<network>/manifest.json` and the archive it names (see ``ExploreFeedManifest``).
    case feed(APIClient)
    /// Firebase Storage objects, as the Dash wallet reads them (see ``ExploreFirebaseStorage``).
    case firebaseStorage(APIClient, ExploreFirebaseStorage)

    /// What the source publishes as `network`'s current directory.
    func latestRelease(for network: ExploreNetwork, maxBytes: Int64) async throws -> ExploreRelease {
        switch self {
        case .feed(let client):
            let manifest = try await client.json(
                ExploreFeedManifest.self, .get, "\(network.rawValue)/manifest.json",
                options: RequestOptions(authorization: .none, operation: ExploreOperation.manifest)
            )
            try manifest.validate(maxBytes: maxBytes)
            return ExploreRelease(
                timestamp: manifest.timestamp, checksum: manifest.checksum, size: manifest.size,
                path: "\(network.rawValue)/\(manifest.archive)", query: [], check: .sha256
            )
        case .firebaseStorage(let client, let storage):
            let path = storage.objectPath(for: network)
            let object = try await client.json(
                ExploreStorageObject.self, .get, path,
                options: RequestOptions(authorization: .none, operation: ExploreOperation.objectMetadata)
            )
            let (timestamp, checksum) = try object.release(maxBytes: maxBytes)
            return ExploreRelease(
                timestamp: timestamp, checksum: checksum, size: object.size, path: path, query: [("alt", "media")],
                check: .firebase(md5Base64: object.md5Hash)
            )
        }
    }

    /// The client the source's requests go through.
    var client: APIClient {
        switch self {
        case .feed(let client), .firebaseStorage(let client, _): client
        }
    }
}

/// A directory a source publishes: what decides whether to download, where the archive is, and how it
/// is checked.
struct ExploreRelease: Sendable {
    /// When the data was published (milliseconds since 1970): newer than the installed one means a download.
    var timestamp: Int64
    /// The published checksum, recorded in the sync state: the archive's SHA-256 (a feed), or the
    /// database's CRC-32C in hex (Firebase Storage, where it is also the archive's password).
    var checksum: String
    /// The archive's size in bytes.
    var size: Int64
    /// The archive's path under the source's base URL.
    var path: String
    /// The query of the archive's download.
    var query: [(String, String?)]
    /// How the download is checked.
    var check: Check

    /// How a downloaded archive is checked against its release.
    enum Check: Sendable, Hashable {
        /// The archive's SHA-256 is ``ExploreRelease/checksum``; the archive is not encrypted.
        case sha256
        /// The archive's MD5 is `md5Base64` when Firebase reports one; the archive opens with
        /// ``ExploreRelease/checksum`` as password, the unpacked database's CRC-32C equals it, and the
        /// archive's comment, when it has one, names the same timestamp and checksum.
        case firebase(md5Base64: String?)
    }

    /// Checks the downloaded archive at `url` before it is unpacked.
    func verifyArchive(at url: URL) throws {
        switch check {
        case .sha256:
            try ExploreArchive.verify(
                url, against: ExploreFeedManifest(timestamp: timestamp, checksum: checksum, size: size, archive: url.lastPathComponent))
        case .firebase(let md5Base64):
            try ExploreArchive.verifySize(of: url, expected: size)
            if let md5Base64 {
                let actual = try ExploreArchive.md5Base64(of: url)
                guard actual == md5Base64 else {
                    throw EngageError(
                        .exploreDownloadInvalid, "The archive's MD5 \(actual) is not the \(md5Base64) Firebase Storage reports.",
                        providerID: .explore, isRetryable: true)
                }
            }
        }
    }

    /// The password the archive opens with.
    var password: String? {
        switch check {
        case .sha256: nil
        case .firebase: checksum
        }
    }

    /// Checks what was unpacked against the release.
    func verifyUnpacked(_ unpacked: ExploreArchive.Unpacked) throws {
        guard case .firebase = check else { return }
        let published = CRC32C.value(ofPublished: checksum)
        guard unpacked.database.crc32c.value == published else {
            throw EngageError(
                .exploreDownloadInvalid,
                "The unpacked directory's CRC-32C \(unpacked.database.crc32c.hex) is not the published \(checksum).",
                providerID: .explore, isRetryable: true)
        }
        // The generator's comment is "<timestamp>#<checksum>"; an archive without one is accepted.
        let parts = unpacked.comment.split(separator: "#", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return }
        guard Int64(parts[0]) == timestamp, CRC32C.value(ofPublished: String(parts[1])) == published else {
            throw EngageError(
                .exploreDownloadInvalid,
                "The archive's comment \"\(unpacked.comment.prefix(40))\" does not match the published \(timestamp)#\(checksum).",
                providerID: .explore)
        }
    }
}
