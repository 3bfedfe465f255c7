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

/// The amounts a gift card can be bought for.
public enum ExploreDenominationsType: String, Codable, Sendable, CaseIterable {
    /// Only listed amounts.
    case fixed
    /// Any amount between a minimum and a maximum.
    case minMax = "min-max"

    /// Reads the directory's value (`'fixed'`, `'Fixed'`, `'min-max'`, `'minmax'`, `'range'`...).
    public init?(directoryValue: String?) {
        switch ExploreValueNormalizer.key(directoryValue) {
        case "fixed", "option", "options": self = .fixed
        case "minmax", "range", "variable", "flexible": self = .minMax
        default: return nil
        }
    }
}

/// A gift-card provider. `piggyCards` exists only in builds with the `PiggyCards` trait.
public enum ExploreGiftCardProviderID: String, Codable, Sendable, CaseIterable {
    /// CTX ("DashSpend").
    case ctx = "CTX"
    #if PiggyCards
        /// PiggyCards.
        case piggyCards = "PiggyCards"
    #endif

    /// Reads the directory's value, tolerating case and stray spaces. `'PiggyCards'` reads as `nil` in
    /// builds without the `PiggyCards` trait.
    public init?(directoryValue: String?) {
        switch ExploreValueNormalizer.key(directoryValue) {
        case "ctx", "dashspend": self = .ctx
        #if PiggyCards
            case "piggycards", "piggycard": self = .piggyCards
        #endif
        default: return nil
        }
    }

    /// Whether the directory value names PiggyCards (whether or not the trait is on).
    static func isPiggyCards(_ value: String?) -> Bool {
        let key = ExploreValueNormalizer.key(value)
        return key == "piggycards" || key == "piggycard"
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

/// Folds the directory's free-form enumeration values to a comparison key: lower case, letters and
/// digits only (`'dash '` → `dash`, `'Gift Card'` → `giftcard`, `'min-max'` → `minmax`).
enum ExploreValueNormalizer {
    static func key(_ value: String?) -> String {
        guard let value else { return "" }
        var key = ""
        key.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars where scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
            key.unicodeScalars.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
        }
        return key
    }
}
