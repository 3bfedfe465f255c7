@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExploreGiftCards
import Foundation

/// A CTX merchant (`GET merchants/{id}`), read from either spelling the API has used:
///
/// | value | current key | legacy key |
/// |---|---|---|
/// | discount, basis points | `savingsPercentage` | `userDiscount` |
/// | denominations kind | `denominationsType` | `denominationType` |
/// | locations | `cachedLocationCount` | `locationCount` |
/// | denominations | `denominations` | `denominationValues` |
///
/// The first column is CTX's production server, the second its staging server (and older answers);
/// the Dash wallet's client (`MerchantResponse` in `CTXSpendModels.swift`) reads both. The
/// denominations are a list of fixed values or `[min, max]`, as strings or numbers; an empty
/// `denominations` falls back to `denominationValues`. Encoding writes the production spelling.
public struct CTXMerchant: Codable, Sendable, Hashable {
    /// The CTX merchant id (a UUID string, as in the directory's `merchantId`).
    public var id: String
    /// The display name.
    public var name: String
    /// The logo, if any.
    public var logoURL: String?
    /// Whether CTX sells this merchant's cards now (`true` when absent).
    public var isEnabled: Bool
    /// The discount in basis points (1 % = 100); negative is a surcharge.
    public var savingsBasisPoints: Int
    /// Whether `denominationValues` are fixed values or `[min, max]`, if CTX said.
    public var denominationsType: ExploreDenominationsType?
    /// The raw values: fixed amounts, or minimum and maximum.
    public var denominationValues: [Decimal]
    /// How many locations CTX lists, if it said.
    public var locationCount: Int?

    /// A merchant.
    public init(
        id: String, name: String, logoURL: String? = nil, isEnabled: Bool = true, savingsBasisPoints: Int = 0,
        denominationsType: ExploreDenominationsType?, denominationValues: [Decimal], locationCount: Int? = nil
    ) {
        self.id = id
        self.name = name
        self.logoURL = logoURL
        self.isEnabled = isEnabled
        self.savingsBasisPoints = savingsBasisPoints
        self.denominationsType = denominationsType
        self.denominationValues = denominationValues
        self.locationCount = locationCount
    }

    /// The amounts the card can be bought for: `[min, max]` for `min-max`, the listed values for
    /// `fixed` (or when the type is missing), `nil` when CTX listed none.
    public var denominations: GiftCardDenominations? {
        guard !denominationValues.isEmpty else { return nil }
        if denominationsType == .minMax, let low = denominationValues.min(), let high = denominationValues.max() {
            return .range(minimum: low, maximum: high)
        }
        return .fixed(denominationValues)
    }

    /// The discount in percent.
    public var savingsPercent: Double { Double(savingsBasisPoints) / 100 }

    enum CodingKeys: String, CodingKey {
        case id, name, logoUrl, enabled
        case savingsPercentage, userDiscount
        case denominationsType, denominationType
        case denominations, denominationValues
        case cachedLocationCount, locationCount
    }

    /// Reads either spelling; numbers may be strings.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let id = try container.lenientIdentifier(.id) else {
            throw DecodingError.keyNotFound(CodingKeys.id, .init(codingPath: container.codingPath, debugDescription: "no id"))
        }
        self.id = id
        name = try container.decodeIfPresent(String.self, forKey: .name) ?? ""
        logoURL = try container.decodeIfPresent(String.self, forKey: .logoUrl)
        isEnabled = try container.decodeIfPresent(Bool.self, forKey: .enabled) ?? true
        savingsBasisPoints = try container.lenientInteger(.savingsPercentage, .userDiscount) ?? 0
        denominationsType = try container.firstString(.denominationsType, .denominationType).flatMap(
            ExploreDenominationsType.init(directoryValue:))
        let listed = try container.lenientDecimalList(.denominations) ?? []
        denominationValues = listed.isEmpty ? (try container.lenientDecimalList(.denominationValues) ?? []) : listed
        locationCount = try container.lenientInteger(.cachedLocationCount, .locationCount)
    }

    /// Writes the current spelling (amounts as decimal strings).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encodeIfPresent(logoURL, forKey: .logoUrl)
        try container.encode(isEnabled, forKey: .enabled)
        try container.encode(savingsBasisPoints, forKey: .savingsPercentage)
        try container.encodeIfPresent(denominationsType?.rawValue, forKey: .denominationsType)
        try container.encode(denominationValues.map(GiftCardMoney.plainString), forKey: .denominations)
        try container.encodeIfPresent(locationCount, forKey: .cachedLocationCount)
    }
}
