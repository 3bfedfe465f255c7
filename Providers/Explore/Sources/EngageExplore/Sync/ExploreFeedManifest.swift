@_spi(EngageProvider) import EngageCore
import Foundation

/// What the directory feed publishes for one network at `<feed>/<network>/manifest.json`: the data's
/// timestamp, and the archive (a zip holding `explore.db`) with its size and SHA-256 checksum.
///
/// ```json
/// {"timestamp": 1763700000000, "checksum": "9f86d0…", "size": 31457280, "archive": "explore-1763700000000.zip"}
/// ```
package struct ExploreFeedManifest: Codable, Sendable, Hashable {
    /// When the data was published, in milliseconds since 1970: a newer timestamp means a download.
    public var timestamp: Int64
    /// The archive's SHA-256, 64 lowercase hex digits.
    public var checksum: String
    /// The archive's size in bytes.
    public var size: Int64
    /// The archive's file name, beside the manifest.
    public var archive: String

    /// A manifest with the given values.
    public init(timestamp: Int64, checksum: String, size: Int64, archive: String) {
        self.timestamp = timestamp
        self.checksum = checksum
        self.size = size
        self.archive = archive
    }

    /// Throws `.exploreDownloadInvalid` unless the manifest is usable: a positive timestamp, a SHA-256
    /// in hex, a size from 1 byte to `maxBytes`, and an archive name that stays beside the manifest.
    public func validate(maxBytes: Int64) throws(EngageError) {
        func refuse(_ reason: String) -> EngageError {
            EngageError(.exploreDownloadInvalid, "The feed's manifest is not usable: \(reason).", providerID: .explore)
        }
        guard timestamp > 0 else { throw refuse("timestamp \(timestamp)") }
        guard checksum.utf8.count == 64, checksum.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw refuse("the checksum is not a lowercase SHA-256 in hex")
        }
        guard size > 0 else { throw refuse("size \(size)") }
        guard size <= maxBytes else { throw refuse("the archive's \(size) bytes are over the limit of \(maxBytes)") }
        let allowed = archive.utf8.allSatisfy { byte in
            (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 45 || byte == 46 || byte == 95
        }
        guard allowed, !archive.isEmpty, archive.utf8.count <= 200, !archive.hasPrefix(".") else {
            throw refuse("the archive name is not a plain file name")
        }
    }
}
