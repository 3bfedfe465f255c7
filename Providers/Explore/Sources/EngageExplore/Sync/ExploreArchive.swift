import Crypto
@_spi(EngageProvider) import EngageCore
import Foundation
import ZIPFoundation

/// Verifying and unpacking a directory archive, the steps a sync runs between download and swap.
/// Public for apps that ship an archive with the app and for the benchmarks.
///
/// ```swift
/// try ExploreArchive.verify(archiveURL, against: manifest)
/// try ExploreArchive.extractDatabase(from: archiveURL, to: databaseURL, maxBytes: 1 << 30)
/// ```
package enum ExploreArchive {
    /// The database's name inside the archive.
    public static let databaseName = "explore.db"

    /// The SHA-256 of the file at `url` in lowercase hex, read in 1 MiB chunks.
    public static func sha256(of url: URL) throws -> String {
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            throw EngageError(.storage, "The downloaded archive cannot be read.", providerID: .explore)
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(data: chunk)
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// Throws `.exploreDownloadInvalid` unless the file at `url` has the manifest's size and SHA-256.
    public static func verify(_ url: URL, against manifest: ExploreFeedManifest) throws {
        let size = ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.int64Value ?? -1
        guard size == manifest.size else {
            throw EngageError(
                .exploreDownloadInvalid, "The download is truncated: \(max(0, size)) of \(manifest.size) bytes arrived.",
                providerID: .explore,
                isRetryable: true
            )
        }
        let checksum = try sha256(of: url)
        guard checksum == manifest.checksum else {
            throw EngageError(
                .exploreDownloadInvalid,
                "The archive's checksum \(checksum.prefix(12))… is not the published \(manifest.checksum.prefix(12))….",
                providerID: .explore, isRetryable: true
            )
        }
    }

    /// Writes the archive's `explore.db` (or its only `.db` file) to `destination`, checking its CRC-32
    /// and stopping past `maxBytes` (a zip bomb never fills the disk).
    ///
    /// - Throws: `.exploreDownloadInvalid` for a file that is not a zip, a zip without a database, a
    ///   damaged entry or one over the limit.
    public static func extractDatabase(from archiveURL: URL, to destination: URL, maxBytes: Int64) throws {
        func invalid(_ reason: String, _ error: (any Error)? = nil) -> EngageError {
            EngageError(
                .exploreDownloadInvalid, "The downloaded archive is not usable: \(reason).", providerID: .explore, underlyingError: error)
        }
        let archive: Archive
        do {
            archive = try Archive(url: archiveURL, accessMode: .read)
        } catch {
            throw invalid("it is not a zip archive", error)
        }
        let files = archive.filter { $0.type == .file }
        let named = files.first { URL(fileURLWithPath: $0.path).lastPathComponent == databaseName }
        let databases = files.filter { $0.path.hasSuffix(".db") }
        guard let entry = named ?? (databases.count == 1 ? databases.first : nil) else {
            throw invalid("it holds no \(databaseName)")
        }
        guard entry.uncompressedSize <= UInt64(max(0, maxBytes)) else {
            throw invalid("its database's \(entry.uncompressedSize) bytes are over the limit of \(maxBytes)")
        }
        guard FileManager.default.createFile(atPath: destination.path, contents: nil),
            let output = try? FileHandle(forWritingTo: destination)
        else {
            throw EngageError(.storage, "The directory file cannot be created at \(destination.lastPathComponent).", providerID: .explore)
        }
        defer { try? output.close() }
        var written: Int64 = 0
        do {
            _ = try archive.extract(entry, skipCRC32: false) { chunk in
                written += Int64(chunk.count)
                guard written <= maxBytes else { throw ExtractionLimitExceeded() }
                try output.write(contentsOf: chunk)
            }
        } catch is ExtractionLimitExceeded {
            throw invalid("its database grows past the limit of \(maxBytes) bytes")
        } catch {
            throw invalid("its database entry is damaged", error)
        }
    }

    private struct ExtractionLimitExceeded: Error {}
}
