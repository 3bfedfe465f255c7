import Foundation

/// A content article, e.g. a carousel item (`content` / `retrieve_multilingual`, in the `MAPP_CONTENT`
/// section).
///
/// Wire form:
/// ```json
/// { "uuid": "a-1", "title": "Νέα προσφορά", "subtitle": "Για λίγες μέρες", "content": "<p>…</p>",
///   "img_preview": "https:\/\/…\/a-1.jpg", "url": "https:\/\/…\/a-1", "categories": ["news"], "tags": "promo",
///   "publish_date": "2026-02-10 09:00:00", "language": "el" }
/// ```
/// Only `uuid` is required.
public struct WarplyArticle: Codable, Sendable, Hashable, Identifiable {
    /// The article's id.
    public var uuid: String
    /// The title.
    public var title: String?
    /// The subtitle.
    public var subtitle: String?
    /// The body (`content`), often HTML.
    public var body: String?
    /// The preview image address (`img_preview`).
    public var imageURL: String?
    /// The article's page (`url`).
    public var url: String?
    /// The categories.
    public var categories: [String]
    /// Free tags.
    public var tags: [String]
    /// When the article was published (`publish_date`).
    public var publishedAt: WarplyTimestamp?
    /// The article's language, e.g. `el` or `en`.
    public var language: String?

    /// The article's identity: its UUID.
    public var id: String { uuid }

    /// `imageURL` as a `URL`, when it is one.
    public var resolvedImageURL: URL? { WarplyModelSupport.url(imageURL) }
    /// `url` as a `URL`, when it is one.
    public var resolvedURL: URL? { WarplyModelSupport.url(url) }

    enum CodingKeys: String, CodingKey {
        case uuid, title, subtitle
        case body = "content"
        case imageURL = "img_preview"
        case url, categories, tags
        case publishedAt = "publish_date"
        case language
    }

    /// An article; every field but the UUID is optional.
    public init(
        uuid: String,
        title: String? = nil,
        subtitle: String? = nil,
        body: String? = nil,
        imageURL: String? = nil,
        url: String? = nil,
        categories: [String] = [],
        tags: [String] = [],
        publishedAt: WarplyTimestamp? = nil,
        language: String? = nil
    ) {
        self.uuid = uuid
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.imageURL = imageURL
        self.url = url
        self.categories = categories
        self.tags = tags
        self.publishedAt = publishedAt
        self.language = language
    }

    /// Decodes the wire form leniently; throws when `uuid` is missing or empty, or a field has a wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        uuid = try container.requiredString(forKey: .uuid)
        title = try container.looseString(forKey: .title)
        subtitle = try container.looseString(forKey: .subtitle)
        body = try container.looseString(forKey: .body)
        imageURL = try container.cleanedURLString(forKey: .imageURL)
        url = try container.cleanedURLString(forKey: .url)
        categories = try container.looseStringList(forKey: .categories)
        tags = try container.looseStringList(forKey: .tags)
        publishedAt = try container.looseTimestamp(forKey: .publishedAt)
        language = try container.looseString(forKey: .language)
    }
}
