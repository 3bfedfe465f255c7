import Foundation

/// How a merchant takes payment.
public enum ExplorePaymentMethod: String, Codable, Sendable, CaseIterable {
    /// Pays with Dash directly.
    case dash
    /// Sells gift cards bought with Dash.
    case giftCard = "gift card"

    /// Reads the directory's value, tolerating case, stray spaces and `_`/`-` for the space.
    public init?(directoryValue: String?) {
        switch ExploreValueNormalizer.key(directoryValue) {
        case "dash": self = .dash
        case "giftcard", "giftcards": self = .giftCard
        default: return nil
        }
    }
}

/// Where a merchant sells.
public enum ExploreMerchantType: String, Codable, Sendable, CaseIterable {
    /// Online only.
    case online
    /// In shops only.
    case physical
    /// Online and in shops.
    case both

    /// Reads the directory's value, tolerating case and stray spaces.
    public init?(directoryValue: String?) {
        switch ExploreValueNormalizer.key(directoryValue) {
        case "online": self = .online
        case "physical": self = .physical
        case "both": self = .both
        default: return nil
        }
    }

    /// Whether the merchant sells online.
    public var isOnline: Bool { self != .physical }
    /// Whether the merchant has shops.
    public var isPhysical: Bool { self != .online }
}

/// How a gift card is redeemed.
public enum ExploreRedeemType: String, Codable, Sendable, CaseIterable {
    /// A barcode shown at the till.
    case barcode
    /// A code entered online.
    case online
    /// A web link (never listed: the reference apps exclude these rows).
    case url

    /// Reads the directory's value, tolerating case and stray spaces.
    public init?(directoryValue: String?) {
        switch ExploreValueNormalizer.key(directoryValue) {
        case "barcode": self = .barcode
        case "online": self = .online
        case "url": self = .url
        default: return nil
        }
    }
}

/// The kind of an ATM.
public enum ExploreATMType: String, Codable, Sendable, CaseIterable {
    /// Buys Dash only.
    case buyOnly = "Buy Only"
    /// Sells Dash only.
    case sellOnly = "Sell Only"
    /// Buys and sells.
    case buyAndSell = "Buy and Sell"

    /// Reads the directory's value, tolerating case and spacing.
    public init?(directoryValue: String?) {
        switch ExploreValueNormalizer.key(directoryValue) {
        case "buyonly", "buy": self = .buyOnly
        case "sellonly", "sell": self = .sellOnly
        case "buyandsell", "buysell", "both": self = .buyAndSell
        default: return nil
        }
    }
}
