@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExploreGiftCards
import Foundation

/// How a PiggyCards product is priced.
public enum PiggyCardsPriceType: String, Codable, Sendable, Hashable {
    /// One fixed face value (`denomination` "25").
    case fixed
    /// Any amount from `min_denomination` to `max_denomination`.
    case range
    /// One of the listed values (`denomination` "25,50,100").
    case option
}

/// A PiggyCards gift card product (`GET giftcards/{country}?brandId=`). Numbers may be written as
/// numbers or strings; `discount_percentage` is a percentage on the wire (15.0) and basis points here
/// (1 500).
public struct PiggyCardsProduct: Codable, Sendable, Hashable {
    /// The product id (`productId` of orders).
    public var id: String
    /// The display name.
    public var name: String
    /// How it is priced.
    public var priceType: PiggyCardsPriceType
    /// The card currency.
    public var currency: String
    /// The discount in basis points (1 % = 100), from 0 to 10 000 in a decoded product; a quote refuses
    /// any other.
    public var discountBasisPoints: Int
    /// The smallest face value of a `range` product.
    public var minDenomination: Decimal?
    /// The largest face value of a `range` product.
    public var maxDenomination: Decimal?
    /// The face values of `fixed` and `option` products.
    public var denominationValues: [Decimal]
    /// The product's own fee as listed (informational; the service fee is always 1.5 %).
    public var fee: Decimal?
    /// How many are in stock, if said.
    public var quantity: Int?
    /// The brand.
    public var brandID: String?
    /// PiggyCards' description of the card, for display (`description` on the wire).
    public var details: String?
    /// The address of the card's image, as PiggyCards sends it (not checked).
    public var imageURL: String?

    /// A product.
    public init(
        id: String, name: String, priceType: PiggyCardsPriceType, currency: String = "USD", discountBasisPoints: Int = 0,
        minDenomination: Decimal? = nil, maxDenomination: Decimal? = nil, denominationValues: [Decimal] = [], fee: Decimal? = nil,
        quantity: Int? = nil, brandID: String? = nil, details: String? = nil, imageURL: String? = nil
    ) {
        self.id = id
        self.name = name
        self.priceType = priceType
        self.currency = currency
        self.discountBasisPoints = discountBasisPoints
        self.minDenomination = minDenomination
        self.maxDenomination = maxDenomination
        self.denominationValues = denominationValues
        self.fee = fee
        self.quantity = quantity
        self.brandID = brandID
        self.details = details
        self.imageURL = imageURL
    }

    /// The amounts a card can be bought for (`nil` for a range without bounds or no listed values).
    public var denominations: GiftCardDenominations? {
        switch priceType {
        case .range:
            guard let minDenomination, let maxDenomination else { return nil }
            return .range(minimum: minDenomination, maximum: maxDenomination)
        case .fixed, .option:
            return denominationValues.isEmpty ? nil : .fixed(denominationValues)
        }
    }

    enum CodingKeys: String, CodingKey {
        case id, name, currency, fee, quantity, denomination, image
        case details = "description"
        case priceType = "price_type", discountPercentage = "discount_percentage"
        case minDenomination = "min_denomination", maxDenomination = "max_denomination", brandID = "brand_id"
    }

    /// Reads the wire form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.lenientIdentifier(.id) ?? ""
        name = try container.decodeIfPresent(String.self, forKey: .name) ?? ""
        // Trimmed and lower-cased, as both official clients compare it.
        let type = try container.decode(String.self, forKey: .priceType)
        guard let priceType = PiggyCardsPriceType(rawValue: type.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()) else {
            throw DecodingError.dataCorruptedError(
                forKey: .priceType, in: container, debugDescription: "unknown price_type '\(type.prefix(20))'")
        }
        self.priceType = priceType
        currency = try container.decodeIfPresent(String.self, forKey: .currency) ?? "USD"
        let percent = try container.lenientDecimal(.discountPercentage) ?? 0
        guard let basisPoints = GiftCardMoney.minorUnits(of: percent) else {
            throw DecodingError.dataCorruptedError(forKey: .discountPercentage, in: container, debugDescription: "more than two decimals")
        }
        // A discount above 100 % would make the price negative; a negative one is a surcharge.
        guard (0...10_000).contains(basisPoints) else {
            throw DecodingError.dataCorruptedError(forKey: .discountPercentage, in: container, debugDescription: "not from 0 to 100 %")
        }
        discountBasisPoints = basisPoints
        minDenomination = try container.lenientDecimal(.minDenomination)
        maxDenomination = try container.lenientDecimal(.maxDenomination)
        denominationValues = try container.lenientDecimalList(.denomination) ?? []
        fee = try container.lenientDecimal(.fee)
        quantity = try container.lenientInteger(.quantity)
        brandID = try container.lenientIdentifier(.brandID)
        details = try? container.decodeIfPresent(String.self, forKey: .details)
        imageURL = try? container.decodeIfPresent(String.self, forKey: .image)
    }

    /// Writes the wire form (integer ids when they are numbers, percent, `denomination` as `"25,50,100"`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let number = Int(id) { try container.encode(number, forKey: .id) } else { try container.encode(id, forKey: .id) }
        try container.encode(name, forKey: .name)
        try container.encode(priceType.rawValue, forKey: .priceType)
        try container.encode(currency, forKey: .currency)
        try container.encode(GiftCardMoney.amount(minorUnits: discountBasisPoints), forKey: .discountPercentage)
        try container.encodeIfPresent(minDenomination.map(GiftCardMoney.plainString), forKey: .minDenomination)
        try container.encodeIfPresent(maxDenomination.map(GiftCardMoney.plainString), forKey: .maxDenomination)
        try container.encode(denominationValues.map(GiftCardMoney.plainString).joined(separator: ","), forKey: .denomination)
        try container.encodeIfPresent(fee.map(GiftCardMoney.plainString), forKey: .fee)
        try container.encodeIfPresent(quantity, forKey: .quantity)
        if let brandID, let number = Int(brandID) {
            try container.encode(number, forKey: .brandID)
        } else {
            try container.encodeIfPresent(brandID, forKey: .brandID)
        }
        try container.encodeIfPresent(details, forKey: .details)
        try container.encodeIfPresent(imageURL, forKey: .image)
    }
}

/// A brand PiggyCards sells gift cards of; its `id` selects the brand's products
/// (`piggyCardsGiftCards(country:brandID:)`).
public struct PiggyCardsBrand: Codable, Sendable, Hashable, Identifiable {
    /// The brand id (PiggyCards' `brandId`; a string on the wire, a number is read too).
    public var id: String
    /// The display name.
    public var name: String
    /// The address of the brand's logo image, when PiggyCards sends one (the official clients' model
    /// has no logo, so expect `nil`).
    public var logo: String?
    /// A brand, e.g. for previews and tests.
    public init(id: String, name: String, logo: String? = nil) {
        self.id = id
        self.name = name
        self.logo = logo
    }

    private enum CodingKeys: String, CodingKey { case id, name, logo }

    /// Reads `{id, name}`; an id written as a number is kept as its digits.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let id = try container.lenientIdentifier(.id) else {
            throw DecodingError.keyNotFound(CodingKeys.id, .init(codingPath: container.codingPath, debugDescription: "no id"))
        }
        self.id = id
        name = try container.decodeIfPresent(String.self, forKey: .name) ?? ""
        logo = try? container.decodeIfPresent(String.self, forKey: .logo)
    }
}
