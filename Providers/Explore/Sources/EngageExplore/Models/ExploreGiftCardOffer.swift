import Foundation

/// One gift-card provider's offer for a merchant, as the directory lists it.
public struct ExploreGiftCardOffer: Codable, Sendable, Hashable {
    /// Who sells the card.
    public var provider: ExploreGiftCardProviderID
    /// The discount in basis points (1 % = 100); negative values are surcharges.
    public var savingsBasisPoints: Int
    /// The amounts the card can be bought for, if known.
    public var denominationsType: ExploreDenominationsType?
    /// How the card is redeemed, if known.
    public var redeemType: ExploreRedeemType?
    /// The provider's own id of the merchant, if listed.
    public var sourceID: String?

    /// An offer.
    public init(
        provider: ExploreGiftCardProviderID, savingsBasisPoints: Int, denominationsType: ExploreDenominationsType? = nil,
        redeemType: ExploreRedeemType? = nil, sourceID: String? = nil
    ) {
        self.provider = provider
        self.savingsBasisPoints = savingsBasisPoints
        self.denominationsType = denominationsType
        self.redeemType = redeemType
        self.sourceID = sourceID
    }

    /// The discount in percent.
    public var savingsPercent: Double { Double(savingsBasisPoints) / 100 }
}
