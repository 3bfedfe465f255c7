@_spi(EngageProvider) import EngageCore

/// Every Sovendus operation, declared once: the name its event, requests and error reports carry.
enum SovendusOperation: String, ProviderOperation {
    /// `POST /redeem/{trafficSourceNumber}`: never sent twice by the SDK.
    case redeemCoupon = "redeem_coupon"
    /// `POST /benefits`: asking changes nothing on the server.
    case benefits
    /// `POST /error`: one telemetry report.
    case errorTelemetry = "error_telemetry"
    /// A banner page's message, refused by the bridge (reported, never a request of its own).
    case bridge

    /// Only asking for benefits may be repeated.
    var isRepeatable: Bool { self == .benefits }
}
