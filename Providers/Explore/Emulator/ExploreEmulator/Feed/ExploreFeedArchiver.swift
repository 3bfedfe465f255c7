import Foundation
import ZIPFoundation

/// Zip archives as the feed publishes them (checksums: ``ExploreArchive/sha256(of:)``).
public enum ExploreFeedArchiver {
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
