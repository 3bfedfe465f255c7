@_spi(EngageProvider) import EngageCore
import Foundation

/// The user's supermarket pass (`consumer_data` / `integration`, in the `MAPP_MARKET_PASS` section).
///
/// Wire form:
/// ```json
/// { "barcode": "9900001234567", "total_discount": "12.40", "new_offers": "3",
///   "supermarkets": [ { "uuid": "m-1", "name": "Σκλαβενίτης", … } ], "map_url": "https:\/\/…\/map" }
/// ```
/// No field is required: the discount and the offer count default to 0, the list to empty.
/// `description` (and reflection) masks the barcode.
public struct WarplyMarketPassDetails: Codable, Sendable, Hashable {
    /// The pass's barcode value, shown at the till. Secret: never log it.
    public var barcode: String?
    /// The discount collected so far, in euros (`total_discount`).
    public var totalDiscount: Decimal
    /// How many offers the user has not seen yet (`new_offers`).
    public var newOffers: Int
    /// The supermarkets that accept the pass (`supermarkets`).
    public var supermarkets: [WarplyMerchant]
    /// The map page of the participating shops (`map_url`).
    public var mapURL: String?

    /// `mapURL` as a `URL`, when it is one.
    public var resolvedMapURL: URL? { WarplyModelSupport.url(mapURL) }

    /// A summary with the barcode masked (all but its last two characters) and the supermarkets counted.
    public var description: String {
        "WarplyMarketPassDetails(barcode: \(WarplyModelSupport.show(barcode.map(WarplyModelSupport.maskKeepingLastTwo))), "
            + "totalDiscount: \(totalDiscount), newOffers: \(newOffers), supermarkets: \(supermarkets.count), "
            + "mapURL: \(WarplyModelSupport.show(mapURL)))"
    }

    enum CodingKeys: String, CodingKey {
        case barcode
        case totalDiscount = "total_discount"
        case newOffers = "new_offers"
        case supermarkets
        case mapURL = "map_url"
    }

    /// Market pass details.
    public init(
        barcode: String? = nil, totalDiscount: Decimal = 0, newOffers: Int = 0, supermarkets: [WarplyMerchant] = [], mapURL: String? = nil
    ) {
        self.barcode = barcode
        self.totalDiscount = totalDiscount
        self.newOffers = newOffers
        self.supermarkets = supermarkets
        self.mapURL = mapURL
    }

    /// Decodes the wire form leniently; throws when a field has a wrong type or a supermarket is invalid.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        barcode = try container.looseString(forKey: .barcode)
        totalDiscount = try container.looseDecimal(forKey: .totalDiscount) ?? 0
        newOffers = try container.looseInt(forKey: .newOffers) ?? 0
        supermarkets = try container.looseArray(WarplyMerchant.self, forKey: .supermarkets)
        mapURL = try container.cleanedURLString(forKey: .mapURL)
    }
}

/// Secrets stay out of `dump`, debuggers and `Mirror` (`SecretBearing`).
@_spi(EngageProvider) extension WarplyMarketPassDetails: SecretBearing {}
