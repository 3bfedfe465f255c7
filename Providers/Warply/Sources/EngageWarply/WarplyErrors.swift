@_spi(EngageProvider) import EngageCore

extension ProviderID {
    /// Warply loyalty.
    public static let warply: ProviderID = "warply"
}

extension EngageError.Code {
    /// The server answered with a body status other than success (the message carries its `msg`).
    public static let warplyRequestRejected: Self = "warply.requestRejected"
    /// Warply refused the request's signature (body status 9): with merchant signing, the merchant id or
    /// app UUID is not this environment's; with device registration, it was refused again right after
    /// registering anew.
    public static let warplyRegistrationInvalid: Self = "warply.registrationInvalid"
    /// The coupon cannot be redeemed (already redeemed, expired or unknown).
    public static let warplyCouponNotRedeemable: Self = "warply.couponNotRedeemable"
}

extension WarplyProvider {
    /// Warply's error codes (1001–1099), registered with the core as the provider is registered.
    @_spi(EngageProvider) public static let errorCodes: [EngageError.Code.Entry] = [
        EngageError.Code.Entry(.warplyRequestRejected, number: 1001, summary: "Warply answered with a status other than success."),
        EngageError.Code.Entry(
            .warplyRegistrationInvalid, number: 1002,
            summary: "Warply refused the request's signature (merchant id or device registration)."),
        EngageError.Code.Entry(
            .warplyCouponNotRedeemable, number: 1003, summary: "The coupon cannot be redeemed: already redeemed, expired or unknown."),
    ]
}
