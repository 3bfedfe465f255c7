import Foundation

/// A merchant category (`shops` / `get_merchant_categories`, in the `MAPP_SHOPS` section).
///
/// Wire form: `{ "uuid": "mc-1", "name": "Σούπερ μάρκετ", "admin_name": "supermarkets",
/// "image": "https:\/\/…\/mc-1.png", "parent": null }`. Only `uuid` is required.
public struct WarplyMerchantCategory: Codable, Sendable, Hashable, Identifiable {
    /// The category's id.
    public var uuid: String
    /// The display name, in the requested language.
    public var name: String?
    /// The internal name (`admin_name`), stable across languages.
    public var adminName: String?
    /// The image address (`image`).
    public var image: String?
    /// The parent category (`parent`), for subcategories.
    public var parentUUID: String?

    /// The category's identity: its UUID.
    public var id: String { uuid }

    /// `image` as a `URL`, when it is one.
    public var imageURL: URL? { WarplyModelSupport.url(image) }

    enum CodingKeys: String, CodingKey {
        case uuid, name
        case adminName = "admin_name"
        case image
        case parentUUID = "parent"
    }

    /// A merchant category; every field but the UUID is optional.
    public init(uuid: String, name: String? = nil, adminName: String? = nil, image: String? = nil, parentUUID: String? = nil) {
        self.uuid = uuid
        self.name = name
        self.adminName = adminName
        self.image = image
        self.parentUUID = parentUUID
    }

    /// Decodes the wire form leniently; throws when `uuid` is missing or empty, or a field has a wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        uuid = try container.requiredString(forKey: .uuid)
        name = try container.looseString(forKey: .name)
        adminName = try container.looseString(forKey: .adminName)
        image = try container.cleanedURLString(forKey: .image)
        parentUUID = try container.looseString(forKey: .parentUUID)
    }
}
