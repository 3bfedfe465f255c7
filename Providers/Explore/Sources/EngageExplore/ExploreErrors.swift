@_spi(EngageProvider) import EngageCore

extension EngageError.Code {
    /// The directory has not been synced yet (or its file was removed): call `sync()` first.
    public static let exploreDirectoryMissing: Self = "explore.directoryMissing"
    /// A downloaded directory failed verification (checksum, size, archive or schema) and was discarded.
    public static let exploreDownloadInvalid: Self = "explore.downloadInvalid"
}
