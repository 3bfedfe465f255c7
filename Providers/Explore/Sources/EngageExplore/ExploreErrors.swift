@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExploreGiftCards

extension EngageError.Code {
    /// The directory has not been synced yet (or its file was removed): call `sync()` first.
    public static let exploreDirectoryMissing: Self = "explore.directoryMissing"
    /// A downloaded directory failed verification (checksum, size, archive or schema) and was discarded.
    public static let exploreDownloadInvalid: Self = "explore.downloadInvalid"
}

extension ExploreProvider {
    /// Explore's error codes: the directory's (1401–1499) and its gift cards' (1501–1599), registered
    /// with the core as the provider is registered.
    @_spi(EngageProvider) public static let errorCodes: [EngageError.Code.Entry] =
        [
            EngageError.Code.Entry(.exploreDirectoryMissing, number: 1401, summary: "The merchant directory has not been synced yet."),
            EngageError.Code.Entry(
                .exploreDownloadInvalid, number: 1402, summary: "The downloaded merchant directory failed verification."),
        ] + EngageError.Code.giftCardEntries
}
