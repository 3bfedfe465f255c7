@_spi(EngageProvider) import EngageCore

extension EngageError.Code {
    /// Sovendus answered 404 to a redemption: the traffic source number is not in a form it accepts.
    public static let sovendusInvalidTrafficSource: Self = "sovendus.invalidTrafficSource"
    /// Sovendus answered 422 to a redemption: a field failed its validation (the e-mail hash, the
    /// traffic medium id, the value, the currency...).
    public static let sovendusRedemptionRejected: Self = "sovendus.redemptionRejected"
    /// Sovendus answered 500 to a redemption: it does not know the traffic medium id, the coupon or
    /// the order, or failed itself. Not retried automatically: the redemption may have been recorded.
    public static let sovendusRedemptionFailed: Self = "sovendus.redemptionFailed"
    /// The banner page posted a message the bridge refuses: an `openUrl` that is not http(s), a height
    /// that is not a finite number of points up to `SovendusConfiguration.maximumBannerHeight`, or a
    /// shape it does not know.
    public static let sovendusRejectedMessage: Self = "sovendus.rejectedMessage"
}

extension ProviderID {
    /// The Sovendus provider's id.
    public static let sovendus: ProviderID = "sovendus"
}

extension SovendusProvider {
    /// Sovendus' error codes (1301–1399), registered with the core as the provider is registered.
    @_spi(EngageProvider) public static let errorCodes: [EngageError.Code.Entry] = [
        EngageError.Code.Entry(.sovendusInvalidTrafficSource, number: 1301, summary: "Sovendus does not accept the traffic source number."),
        EngageError.Code.Entry(.sovendusRedemptionRejected, number: 1302, summary: "Sovendus refused a field of the redemption."),
        EngageError.Code.Entry(
            .sovendusRedemptionFailed, number: 1303, summary: "Sovendus failed the redemption; it may have been recorded."),
        EngageError.Code.Entry(
            .sovendusRejectedMessage, number: 1304, summary: "The Sovendus banner page sent a message the bridge refuses."),
    ]
}
