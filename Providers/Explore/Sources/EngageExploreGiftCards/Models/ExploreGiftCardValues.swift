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

/// Who sells a gift card: the directory's name for a gift-card source, and the key under which the
/// vault keeps that source's cards. The same values exist in every build; whether a source can be
/// used depends on the build (`.piggyCards` needs the `PiggyCards` trait) and on the configuration.
public struct ExploreGiftCardProviderID: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible {
    /// The name as the directory and the vault write it (`CTX`, `PiggyCards`).
    public let rawValue: String

    /// An id from its directory spelling; the vault keys cards by it, so keep it stable.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// CTX ("DashSpend").
    public static let ctx = Self(rawValue: "CTX")
    /// PiggyCards.
    public static let piggyCards = Self(rawValue: "PiggyCards")

    /// Reads the directory's value, tolerating case and stray spaces. `'PiggyCards'` reads as `nil` in
    /// builds without the `PiggyCards` trait, so its offers are not listed where it cannot be bought.
    public init?(directoryValue: String?) {
        switch ExploreValueNormalizer.key(directoryValue) {
        case "ctx", "dashspend": self = .ctx
        case "piggycards", "piggycard":
            #if PiggyCards
                self = .piggyCards
            #else
                return nil
            #endif
        default: return nil
        }
    }

    /// Whether the directory value names PiggyCards (whether or not the trait is on).
    package static func isPiggyCards(_ value: String?) -> Bool {
        let key = ExploreValueNormalizer.key(value)
        return key == "piggycards" || key == "piggycard"
    }

    /// The raw value.
    public var description: String { rawValue }

    /// Decodes the raw string.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the raw string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// Folds the directory's free-form enumeration values to a comparison key: lower case, letters and
/// digits only (`'dash '` → `dash`, `'Gift Card'` → `giftcard`, `'min-max'` → `minmax`).
package enum ExploreValueNormalizer {
    package static func key(_ value: String?) -> String {
        guard let value else { return "" }
        var key = ""
        key.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars where scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
            key.unicodeScalars.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
        }
        return key
    }
}
