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
