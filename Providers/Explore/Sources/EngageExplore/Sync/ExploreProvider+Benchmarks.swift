import Foundation

/// The install half of a directory sync, step by step, for EngageKit's benchmark scenarios: they run in
/// release builds of another package (the development package), which cannot reach the `package`
/// declarations a sync uses. No app or provider imports the `EngageBenchmarks` group.
extension ExploreProvider {
    /// Throws `.exploreDownloadInvalid` unless the archive at `url` has `size` bytes and the SHA-256
    /// `checksum` (64 lowercase hex digits): the check a sync makes of a download against its manifest.
    @_spi(EngageBenchmarks) public static func verifyArchive(at url: URL, size: Int64, checksum: String) throws {
        try ExploreArchive.verify(
            url, against: ExploreFeedManifest(timestamp: 1, checksum: checksum, size: size, archive: url.lastPathComponent))
    }

    /// Unpacks the directory's database from the archive at `url` to `destination`, refusing an entry of
    /// more than `maxBytes`, as a sync does after the check. Throws `.exploreDownloadInvalid` for an
    /// archive it cannot use.
    @_spi(EngageBenchmarks) public static func extractDirectory(fromArchiveAt url: URL, to destination: URL, maxBytes: Int64) throws {
        try ExploreArchive.extractDatabase(from: url, to: destination, maxBytes: maxBytes)
    }
}
