import Foundation

/// A seasonal gifts package: a themed group of coupon sets offered for a period (the seed's
/// `LoyaltyGiftsForYouPackage`).
///
/// Wire form:
/// ```json
/// { "uuid": "sp-1", "title": "Χριστουγεννιάτικα δώρα", "description": "…", "image": "https:\/\/…\/sp-1.jpg",
///   "couponsets": ["cs-1", "cs-2"], "start_date": "2026-12-01 00:00:00", "end_date": "2026-12-31 23:59:59" }
/// ```
/// Only `uuid` is required; `couponsets` may also be one comma-separated string.
public struct WarplySeasonalPackage: Codable, Sendable, Hashable, Identifiable {
    /// The package's id.
    public var uuid: String
    /// The title.
    public var title: String?
    /// The description.
    public var description: String?
    /// The image address (`image`).
    public var imageURL: String?
    /// The coupon sets in the package (`couponsets`).
    public var couponSetUUIDs: [String]
    /// When the package becomes available (`start_date`).
    public var startDate: WarplyTimestamp?
    /// When the package ends (`end_date`).
    public var endDate: WarplyTimestamp?

    /// The package's identity: its UUID.
    public var id: String { uuid }

    /// `imageURL` as a `URL`, when it is one.
    public var resolvedImageURL: URL? { WarplyModelSupport.url(imageURL) }

    enum CodingKeys: String, CodingKey {
        case uuid, title, description
        case imageURL = "image"
        case couponSetUUIDs = "couponsets"
        case startDate = "start_date"
        case endDate = "end_date"
    }

    /// A seasonal package; every field but the UUID is optional.
    public init(
        uuid: String,
        title: String? = nil,
        description: String? = nil,
        imageURL: String? = nil,
        couponSetUUIDs: [String] = [],
        startDate: WarplyTimestamp? = nil,
        endDate: WarplyTimestamp? = nil
    ) {
        self.uuid = uuid
        self.title = title
        self.description = description
        self.imageURL = imageURL
        self.couponSetUUIDs = couponSetUUIDs
        self.startDate = startDate
        self.endDate = endDate
    }

    /// Decodes the wire form leniently; throws when `uuid` is missing or empty, or a field has a wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        uuid = try container.requiredString(forKey: .uuid)
        title = try container.looseString(forKey: .title)
        description = try container.looseString(forKey: .description)
        imageURL = try container.cleanedURLString(forKey: .imageURL)
        couponSetUUIDs = try container.looseStringList(forKey: .couponSetUUIDs)
        startDate = try container.looseTimestamp(forKey: .startDate)
        endDate = try container.looseTimestamp(forKey: .endDate)
    }
}
