import Crypto
import Foundation
import ZIPFoundation

/// Zip archives and checksums as the feed publishes them.
public enum ExploreFeedArchiver {
    /// The SHA-256 of `data` in lowercase hex.
    public static func sha256(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    /// A deflated zip holding the file at `databaseURL` as `explore.db` (built in `folder`).
    public static func zip(databaseAt databaseURL: URL, in folder: URL, entryName: String = "explore.db") throws -> Data {
        let archiveURL = folder.appendingPathComponent("archive-\(UUID().uuidString.prefix(8)).zip")
        defer { try? FileManager.default.removeItem(at: archiveURL) }
        do {
            // Scoped: the archive's file is complete once the `Archive` is released.
            let archive = try Archive(url: archiveURL, accessMode: .create)
            try archive.addEntry(with: entryName, fileURL: databaseURL, compressionMethod: .deflate)
        }
        return try Data(contentsOf: archiveURL)
    }
}
