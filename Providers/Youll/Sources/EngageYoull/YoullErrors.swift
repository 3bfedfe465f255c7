@_spi(EngageProvider) import EngageCore

extension EngageError.Code {
    /// The operation needs the user's access token and the host app's session has none; nothing was
    /// sent.
    public static let youllMissingAccessToken: Self = "youll.missingAccessToken"
    /// A `cacheOnly` query found nothing in the cache; nothing was sent.
    public static let youllNotCached: Self = "youll.notCached"
}

extension ProviderID {
    /// The Youll provider's id.
    public static let youll: ProviderID = "youll"
}

extension YoullProvider {
    /// Youll's error codes (1201–1299), registered with the core as the provider is registered.
    @_spi(EngageProvider) public static let errorCodes: [EngageError.Code.Entry] = [
        EngageError.Code.Entry(
            .youllMissingAccessToken, number: 1201, summary: "The call needs the user's access token and the host app's session has none."),
        EngageError.Code.Entry(.youllNotCached, number: 1202, summary: "A cache-only query found nothing in the cache."),
    ]
}
