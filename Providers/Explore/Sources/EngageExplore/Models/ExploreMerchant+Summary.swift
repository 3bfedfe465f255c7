@_spi(EngageProvider) import EngageCore
import Foundation

extension ExploreMerchant {
    /// The merchant as the facade's cross-provider summary: its shown location and distance, whether it
    /// sells online, its best discount, and its payment method and gift-card providers as attributes
    /// (`paymentMethod`, `giftCardProviders` comma-separated).
    public var summary: MerchantSummary {
        var attributes: [String: String] = [:]
        if let paymentMethod { attributes["paymentMethod"] = paymentMethod.rawValue }
        let providers = giftCardOffers.map(\.provider.rawValue)
        if !providers.isEmpty { attributes["giftCardProviders"] = providers.joined(separator: ",") }
        let point = location.latitude.flatMap { latitude in location.longitude.flatMap { try? GeoPoint(latitude: latitude, longitude: $0) }
        }
        return MerchantSummary(
            id: merchantID, providerID: .explore, name: name, logoURL: logoURL.flatMap(URL.init(string:)), location: point,
            distanceMeters: distanceMeters, locationCount: locationCount, isOnline: type != .physical,
            discountPercent: discountBasisPoints == 0 ? nil : discountPercent, attributes: attributes
        )
    }
}
