import Crypto
@_spi(EngageProvider) import EngageCore
import Foundation

/// Verifying and unpacking a directory archive, the steps a sync runs between download and swap.
/// Package-level: the sync, the benchmarks and the emulator's tests use it.
///
/// ```swift
/// try ExploreArchive.verify(archiveURL, against: manifest)
/// let unpacked = try ExploreArchive.extractDatabase(from: archiveURL, to: databaseURL, maxBytes: 1 << 30)
/// ```
package enum ExploreArchive {
    /// The database's name inside the archive.
    public static let databaseName = "explore.db"

    /// What ``extractDatabase(from:to:maxBytes:password:)`` unpacked.
    package struct Unpacked: Sendable, Hashable {
        /// The database's size and CRC-32C.
        package var database: ExploreZipArchive.Extracted
        /// The archive's comment (the Dash generator writes `<timestamp>#<checksum>`).
        package var comment: String
    }

    /// The SHA-256 of the file at `url` in lowercase hex, read in 1 MiB chunks.
    public static func sha256(of url: URL) throws -> String {
        try digest(of: url, into: SHA256()).map { String(format: "%02x", $0) }.joined()
    }

    /// The base64 MD5 of the file at `url`, as Firebase Storage reports it in `md5Hash`.
    static func md5Base64(of url: URL) throws -> String {
        Data(try digest(of: url, into: Insecure.MD5())).base64EncodedString()
    }

    private static func digest<Function: HashFunction>(of url: URL, into function: Function) throws -> Function.Digest {
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            throw EngageError(.storage, "The downloaded archive cannot be read.", providerID: .explore)
        }
        defer { try? handle.close() }
        var hasher = function
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(data: chunk)
        }
        return hasher.finalize()
    }

    /// Throws `.exploreDownloadInvalid` unless the file at `url` has the manifest's size and SHA-256.
    public static func verify(_ url: URL, against manifest: ExploreFeedManifest) throws {
        try verifySize(of: url, expected: manifest.size)
        let checksum = try sha256(of: url)
        guard checksum == manifest.checksum else {
            throw EngageError(
                .exploreDownloadInvalid,
                "The archive's checksum \(checksum.prefix(12))… is not the published \(manifest.checksum.prefix(12))….",
                providerID: .explore, isRetryable: true
            )
        }
    }

    /// Throws `.exploreDownloadInvalid` (its underlying error an ``ExploreShortDownload``: the transfer,
    /// not the release, failed) unless the file at `url` has `expected` bytes.
    static func verifySize(of url: URL, expected: Int64) throws {
        let size = ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.int64Value ?? -1
        guard size == expected else {
            throw EngageError(
                .exploreDownloadInvalid, "The download is truncated: \(max(0, size)) of \(expected) bytes arrived.",
                providerID: .explore,
                isRetryable: true, underlyingError: ExploreShortDownload()
            )
        }
    }

    /// Writes the archive's `explore.db` (or its only `.db` file) to `destination`, opening it with
    /// `password` when it is WinZip-AES encrypted, checking its size and CRC-32 (where the entry has
    /// one), and stopping past `maxBytes` (a zip bomb never fills the disk).
    ///
    /// - Returns: the database's size and CRC-32C, and the archive's comment.
    /// - Throws: `.exploreDownloadInvalid` for a file that is not a zip, a zip without a database, a
    ///   damaged entry, one over the limit, or an encrypted one that `password` does not open.
    @discardableResult
    public static func extractDatabase(
        from archiveURL: URL, to destination: URL, maxBytes: Int64, password: String? = nil
    ) throws
        -> Unpacked
    {
        func invalid(_ failure: ExploreZipArchive.Failure) -> EngageError {
            EngageError(.exploreDownloadInvalid, "The downloaded archive is not usable: \(failure.reason).", providerID: .explore)
        }
        do {
            let archive = try ExploreZipArchive(url: archiveURL)
            let files = archive.entries.filter { !$0.isDirectory }
            let named = files.first { URL(fileURLWithPath: $0.path).lastPathComponent == databaseName }
            let databases = files.filter { $0.path.hasSuffix(".db") }
            guard let entry = named ?? (databases.count == 1 ? databases.first : nil) else {
                throw ExploreZipArchive.Failure(reason: "it holds no \(databaseName)")
            }
            guard FileManager.default.createFile(atPath: destination.path, contents: nil),
                let output = try? FileHandle(forWritingTo: destination)
            else {
                throw EngageError(
                    .storage, "The directory file cannot be created at \(destination.lastPathComponent).", providerID: .explore)
            }
            defer { try? output.close() }
            let database = try archive.extract(entry, password: password, to: output, maxBytes: maxBytes)
            return Unpacked(database: database, comment: archive.comment)
        } catch let failure as ExploreZipArchive.Failure {
            throw invalid(failure)
        }
    }
}
