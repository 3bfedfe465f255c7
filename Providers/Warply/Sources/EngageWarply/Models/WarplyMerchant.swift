@_spi(EngageProvider) import EngageCore
import Foundation

/// A merchant (shop) from `shops` / `retrieve_multilingual`, in the `MAPP_SHOPS` section, also nested
/// in coupons (`merchant_details`) and in the market pass (`supermarkets`).
///
/// Wire form:
/// ```json
/// { "uuid": "m-1", "name": "Σκλαβενίτης Κηφισιάς", "address": "Λεωφ. Κηφισίας 100", "city": "Αθήνα",
///   "region": "Αττική", "postal_code": "14562", "telephone": "2100000000", "website": "https:\/\/example.gr",
///   "email": "info@example.gr", "img_preview": "https:\/\/…\/m-1.png", "description": "…",
///   "categories": ["supermarket"], "tags": "food,drinks", "latitude": "38.07", "longitude": 23.81,
///   "default_shown": "1", "parent": "m-0", "distance": 1250.5 }
/// ```
/// Only `uuid` is required; lists may arrive as arrays or comma-separated strings.
public struct WarplyMerchant: Codable, Sendable, Hashable, Identifiable {
    /// The merchant's id.
    public var uuid: String
    /// The name.
    public var name: String?
    /// The street address.
    public var address: String?
    /// The city.
    public var city: String?
    /// The region.
    public var region: String?
    /// The postal code (`postal_code`).
    public var postalCode: String?
    /// The telephone number.
    public var telephone: String?
    /// The web site address.
    public var website: String?
    /// The merchant's contact email.
    public var email: String?
    /// The logo image address (`img_preview`).
    public var logo: String?
    /// The description.
    public var description: String?
    /// The merchant's category ids or names (`categories`).
    public var categories: [String]
    /// Free tags (`tags`).
    public var tags: [String]
    /// Degrees north, when known.
    public var latitude: Double?
    /// Degrees east, when known.
    public var longitude: Double?
    /// Whether the merchant is shown by default, e.g. on the map (`default_shown`).
    public var isDefaultShown: Bool
    /// The parent merchant (`parent`), for branches.
    public var parentUUID: String?
    /// The distance from the user's location, in metres (`distance`), when the server computed it.
    public var distanceMeters: Double?

    /// The merchant's identity: its UUID.
    public var id: String { uuid }

    /// The merchant's location; `nil` when a coordinate is missing or out of range.
    public var location: GeoPoint? {
        guard let latitude, let longitude else { return nil }
        return try? GeoPoint(latitude: latitude, longitude: longitude)
    }

    /// `logo` as a `URL`, when it is one.
    public var logoURL: URL? { WarplyModelSupport.url(logo) }
    /// `website` as a `URL`, when it is one.
    public var websiteURL: URL? { WarplyModelSupport.url(website) }

    enum CodingKeys: String, CodingKey {
        case uuid, name, address, city, region
        case postalCode = "postal_code"
        case telephone, website, email
        case logo = "img_preview"
        case description, categories, tags, latitude, longitude
        case isDefaultShown = "default_shown"
        case parentUUID = "parent"
        case distanceMeters = "distance"
    }

    /// A merchant; every field but the UUID is optional.
    public init(
        uuid: String,
        name: String? = nil,
        address: String? = nil,
        city: String? = nil,
        region: String? = nil,
        postalCode: String? = nil,
        telephone: String? = nil,
        website: String? = nil,
        email: String? = nil,
        logo: String? = nil,
        description: String? = nil,
        categories: [String] = [],
        tags: [String] = [],
        latitude: Double? = nil,
        longitude: Double? = nil,
        isDefaultShown: Bool = false,
        parentUUID: String? = nil,
        distanceMeters: Double? = nil
    ) {
        self.uuid = uuid
        self.name = name
        self.address = address
        self.city = city
        self.region = region
        self.postalCode = postalCode
        self.telephone = telephone
        self.website = website
        self.email = email
        self.logo = logo
        self.description = description
        self.categories = categories
        self.tags = tags
        self.latitude = latitude
        self.longitude = longitude
        self.isDefaultShown = isDefaultShown
        self.parentUUID = parentUUID
        self.distanceMeters = distanceMeters
    }

    /// Decodes the wire form leniently; throws when `uuid` is missing or empty, or a field has a wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        uuid = try container.requiredString(forKey: .uuid)
        name = try container.looseString(forKey: .name)
        address = try container.looseString(forKey: .address)
        city = try container.looseString(forKey: .city)
        region = try container.looseString(forKey: .region)
        postalCode = try container.looseString(forKey: .postalCode)
        telephone = try container.looseString(forKey: .telephone)
        website = try container.cleanedURLString(forKey: .website)
        email = try container.looseString(forKey: .email)
        logo = try container.cleanedURLString(forKey: .logo)
        description = try container.looseString(forKey: .description)
        categories = try container.looseStringList(forKey: .categories)
        tags = try container.looseStringList(forKey: .tags)
        latitude = try container.looseDouble(forKey: .latitude)
        longitude = try container.looseDouble(forKey: .longitude)
        isDefaultShown = try container.looseBool(forKey: .isDefaultShown) ?? false
        parentUUID = try container.looseString(forKey: .parentUUID)
        distanceMeters = try container.looseDouble(forKey: .distanceMeters)
    }
}
