import Foundation

/// A change to the user's points balance (`consumer_data` / `get_points_history`, in the
/// `MAPP_POINTS` section).
///
/// Wire form:
/// ```json
/// { "entry_id": "p-1", "entry_date": "2026-03-01 18:22:10", "points": "-200", "source": "redemption",
///   "description": "Εξαργύρωση κουπονιού", "expiration": "2027-03-01 00:00:00" }
/// ```
/// `points` is required and negative for spent points.
public struct WarplyPointsEntry: Codable, Sendable, Hashable {
    /// The entry's id (`entry_id`), when the server sends one.
    public var id: String?
    /// When the points changed (`entry_date`).
    public var date: WarplyTimestamp?
    /// The change: positive when earned, negative when spent (`points`).
    public var points: Int
    /// Where the points came from or went to (`source`).
    public var source: String?
    /// The description.
    public var description: String?
    /// When earned points expire (`expiration`).
    public var expiration: WarplyTimestamp?

    enum CodingKeys: String, CodingKey {
        case id = "entry_id"
        case date = "entry_date"
        case points, source, description, expiration
    }

    /// A points entry.
    public init(
        id: String? = nil,
        date: WarplyTimestamp? = nil,
        points: Int,
        source: String? = nil,
        description: String? = nil,
        expiration: WarplyTimestamp? = nil
    ) {
        self.id = id
        self.date = date
        self.points = points
        self.source = source
        self.description = description
        self.expiration = expiration
    }

    /// Decodes the wire form leniently; throws when `points` is missing, or a field has a wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.looseString(forKey: .id)
        date = try container.looseTimestamp(forKey: .date)
        points = try container.requiredInt(forKey: .points)
        source = try container.looseString(forKey: .source)
        description = try container.looseString(forKey: .description)
        expiration = try container.looseTimestamp(forKey: .expiration)
    }
}
