@_spi(EngageProvider) import EngageCore
import Foundation

/// A merchant of the directory: one entry per `merchantId`, shown at one of its locations (the closest
/// to the query's centre, or its first listed one).
public struct ExploreMerchant: Codable, Sendable, Hashable, Identifiable {
    /// The directory's merchant id (`row-<rowid>` for rows without one).
    public var merchantID: String
    /// The name.
    public var name: String
    /// How it takes payment.
    public var paymentMethod: ExplorePaymentMethod?
    /// Where it sells.
    public var type: ExploreMerchantType
    /// How its gift cards are redeemed, if it sells them.
    public var redeemType: ExploreRedeemType?
    /// The amounts its gift cards come in, if known.
    public var denominationsType: ExploreDenominationsType?
    /// The best discount, in basis points: the best of its providers' offers, else its own, else 0.
    public var discountBasisPoints: Int
    /// Its gift-card offers (PiggyCards offers only in builds with the `PiggyCards` trait).
    public var giftCardOffers: [ExploreGiftCardOffer]
    /// Its web site.
    public var website: String?
    /// Its logo.
    public var logoURL: String?
    /// A link into its app.
    public var deeplink: String?
    /// The location shown: the closest matching one for a query with a centre, else the first listed.
    public var location: ExploreLocation
    /// How many of its locations match the query (within the radius, for a query with one).
    public var locationCount: Int

    public var id: String { merchantID }
    /// The best discount in percent.
    public var discountPercent: Double { Double(discountBasisPoints) / 100 }
    /// The distance of `location` from the query's centre, in metres.
    public var distanceMeters: Double? { location.distanceMeters }

    /// A merchant.
    public init(
        merchantID: String, name: String, paymentMethod: ExplorePaymentMethod?, type: ExploreMerchantType, redeemType: ExploreRedeemType?,
        denominationsType: ExploreDenominationsType?, discountBasisPoints: Int, giftCardOffers: [ExploreGiftCardOffer], website: String?,
        logoURL: String?, deeplink: String?, location: ExploreLocation, locationCount: Int
    ) {
        self.merchantID = merchantID
        self.name = name
        self.paymentMethod = paymentMethod
        self.type = type
        self.redeemType = redeemType
        self.denominationsType = denominationsType
        self.discountBasisPoints = discountBasisPoints
        self.giftCardOffers = giftCardOffers
        self.website = website
        self.logoURL = logoURL
        self.deeplink = deeplink
        self.location = location
        self.locationCount = locationCount
    }
}
