@_spi(EngageProvider) import EngageCore

extension EngageError.Code {
    /// The operation needs the user's access token and the host app's session has none; nothing was
    /// sent.
    public static let youllMissingAccessToken: Self = "youll.missingAccessToken"
    /// A `returnCacheDataDontFetch` query found nothing in the cache; nothing was sent.
    public static let youllNotCached: Self = "youll.notCached"
}

extension ProviderID {
    /// The Youll provider's id.
    public static let youll: ProviderID = "youll"
}
