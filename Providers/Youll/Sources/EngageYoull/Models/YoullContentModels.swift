import EngageCore
import Foundation

/// A piece of Youll content: a video, an audio session, an article, a workout or a recipe.
public struct YoullContent: Codable, Sendable, Hashable, Identifiable {
    /// The content id.
    public var id: String
    /// The title in the configured `extraLang` when a translation exists, else the default title.
    public var title: String
    /// The body text in the same language as `title`, if any.
    public var body: String?
    /// The language of `title` and `body`: `extraLang` when translated, else `nil` (the backend's
    /// default language).
    public var language: String?
    /// The kind, e.g. `video`, `audio`, `article`, `workout`, `recipe`.
    public var kind: String
    /// The category it belongs to, if any.
    public var categoryID: String?
    /// How long it plays, if it plays.
    public var duration: Duration?
    /// The cover image.
    public var imageURL: URL?
    /// The media file or page.
    public var mediaURL: URL?
    /// Whether it is behind the paywall for this user.
    public var isLocked: Bool
    /// Whether this user liked it (always `false` for guests).
    public var isLiked: Bool
    /// How many users liked it.
    public var likeCount: Int
    /// The tags it is filed under.
    public var tags: [String]
    /// When it was published, if known.
    public var publishedAt: Date?

    init(wire: WireContent, context: YoullDecodingContext) throws {
        let text = YoullLocalization.pick(title: wire.title, body: wire.body, translations: wire.translations, language: context.language)
        id = wire.id
        title = text.title
        body = text.body
        language = text.language
        kind = wire.kind
        categoryID = wire.categoryId
        duration = try wire.durationSeconds.map { seconds in
            guard seconds >= 0 else { throw YoullDecoding.invalid("duration_seconds", "\(seconds)", of: "content \(wire.id)") }
            return .seconds(seconds)
        }
        imageURL = wire.imageUrl.flatMap(YoullLocalization.url)
        mediaURL = wire.mediaUrl.flatMap(YoullLocalization.url)
        isLocked = wire.isLocked
        isLiked = wire.isLiked
        likeCount = max(0, wire.likeCount)
        tags = wire.tags
        publishedAt = try wire.publishedAt.map { try YoullDecoding.date($0, field: "published_at", of: "content \(wire.id)") }
    }

    /// This content as a cross-provider `ContentItem` (kind, duration and lock state as attributes).
    public var contentItem: ContentItem {
        var attributes = ["kind": kind, "is_locked": String(isLocked), "like_count": String(likeCount)]
        if let duration { attributes["duration_seconds"] = String(duration.components.seconds) }
        return ContentItem(
            id: id, providerID: .youll, type: kind, title: LocalizedText(title, language: language ?? "en"),
            summary: body.map { LocalizedText($0, language: language ?? "en") }, imageURL: imageURL, url: mediaURL,
            publishedAt: publishedAt, categories: categoryID.map { [$0] } ?? [], attributes: attributes
        )
    }
}

/// A content category with its subcategories.
public struct YoullCategory: Codable, Sendable, Hashable, Identifiable {
    /// The category id.
    public var id: String
    /// The title, translated when possible.
    public var title: String
    /// Its image.
    public var imageURL: URL?
    /// Its subcategories, in the backend's order.
    public var subcategories: [YoullSubcategory]

    init(wire: WireCategory, context: YoullDecodingContext) {
        id = wire.id
        title = YoullLocalization.pick(title: wire.title, body: nil, translations: wire.translations, language: context.language).title
        imageURL = wire.imageUrl.flatMap(YoullLocalization.url)
        subcategories = wire.subcategories.map { YoullSubcategory(wire: $0, context: context) }
    }

    /// The category as a cross-provider `ContentItem` of type `category`.
    public var contentItem: ContentItem {
        ContentItem(id: id, providerID: .youll, type: "category", title: LocalizedText(title), imageURL: imageURL)
    }
}

/// A subcategory of a category.
public struct YoullSubcategory: Codable, Sendable, Hashable, Identifiable {
    /// The subcategory id.
    public var id: String
    /// The category it belongs to.
    public var categoryID: String
    /// The title, translated when possible.
    public var title: String

    init(wire: WireSubcategory, context: YoullDecodingContext) {
        id = wire.id
        categoryID = wire.categoryId
        title = YoullLocalization.pick(title: wire.title, body: nil, translations: wire.translations, language: context.language).title
    }
}

/// A section of the home, explore or search feed.
///
/// Section kinds this version knows are typed; a kind added to the backend later arrives as
/// ``unknown(kind:raw:)`` with the section's JSON as received, so a new section never fails the feed.
public enum YoullFeedSection: Codable, Sendable, Hashable {
    /// A row of content (`hero`, `carousel`, `grid`, `continue_watching`).
    case contents(YoullContentSection)
    /// A row of categories.
    case categories(YoullCategorySection)
    /// A kind this version does not know, kept as the JSON the backend sent.
    case unknown(kind: String, raw: JSONValue)

    private enum CodingKeys: String, CodingKey { case kind, section, raw }

    /// Encodes `{"kind": …, "section": {…}}`, or `{"kind": …, "raw": <the JSON as received>}` for an
    /// unknown kind.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case let .contents(section):
            try container.encode(section.style.rawValue, forKey: .kind)
            try container.encode(section, forKey: .section)
        case let .categories(section):
            try container.encode("categories", forKey: .kind)
            try container.encode(section, forKey: .section)
        case let .unknown(kind, raw):
            try container.encode(kind, forKey: .kind)
            try container.encode(raw, forKey: .raw)
        }
    }

    /// Decodes what ``encode(to:)`` writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decode(String.self, forKey: .kind)
        if YoullContentSection.Style(rawValue: kind) != nil {
            self = .contents(try container.decode(YoullContentSection.self, forKey: .section))
        } else if kind == "categories" {
            self = .categories(try container.decode(YoullCategorySection.self, forKey: .section))
        } else {
            self = .unknown(kind: kind, raw: try container.decode(JSONValue.self, forKey: .raw))
        }
    }

    /// The section's id (`nil` for an unknown section without a string `id`).
    public var id: String? {
        switch self {
        case let .contents(section): section.id
        case let .categories(section): section.id
        case let .unknown(_, raw):
            if case let .object(object) = raw, case let .string(id) = object["id"] { id } else { nil }
        }
    }
}

/// A feed section of content.
public struct YoullContentSection: Codable, Sendable, Hashable, Identifiable {
    /// How a content section is laid out.
    public enum Style: String, Codable, Sendable, CaseIterable {
        /// One large item.
        case hero
        /// A horizontal row.
        case carousel
        /// A grid.
        case grid
        /// The user's unfinished content.
        case continueWatching = "continue_watching"
    }

    /// The section id (the slice id to dismiss it with).
    public var id: String
    /// How it is laid out.
    public var style: Style
    /// The title, translated when possible.
    public var title: String
    /// Whether the user may dismiss it (``YoullMutation/dismissHomeSlice(id:)``).
    public var isDismissible: Bool
    /// Its content.
    public var items: [YoullContent]
}

/// A feed section of categories.
public struct YoullCategorySection: Codable, Sendable, Hashable, Identifiable {
    /// The section id.
    public var id: String
    /// The title, translated when possible.
    public var title: String
    /// Its categories.
    public var categories: [YoullCategory]
}

/// Reads a feed: typed sections, and unknown kinds kept raw.
enum YoullFeedDecoding {
    static func sections(_ raw: [JSONValue], context: YoullDecodingContext) throws -> [YoullFeedSection] {
        try raw.enumerated().map { index, value in
            guard case let .object(object) = value, case let .string(kind) = object["kind"] else {
                throw EngageError(.decoding, "Feed section \(index) has no kind.", providerID: .youll)
            }
            let isContent = YoullContentSection.Style(rawValue: kind) != nil
            guard isContent || kind == "categories" else { return .unknown(kind: kind, raw: value) }
            let wire: WireFeedSection
            do {
                wire = try YoullJSON.decoder().decode(WireFeedSection.self, from: JSONEncoder().encode(value))
            } catch let error as DecodingError {
                let problem = EngageError(decodingError: error, providerID: .youll)
                throw EngageError(.decoding, "Feed section \(index) (\(kind)): \(problem.message)", providerID: .youll, underlyingError: error)
            }
            let title = YoullLocalization.pick(title: wire.title, body: nil, translations: wire.translations, language: context.language).title
            if let style = YoullContentSection.Style(rawValue: kind) {
                return .contents(YoullContentSection(
                    id: wire.id, style: style, title: title, isDismissible: wire.dismissible,
                    items: try wire.items.map { try YoullContent(wire: $0, context: context) }
                ))
            }
            return .categories(YoullCategorySection(
                id: wire.id, title: title, categories: wire.categories.map { YoullCategory(wire: $0, context: context) }
            ))
        }
    }
}

/// Choosing translations, and lenient URLs.
enum YoullLocalization {
    static func pick(title: String, body: String?, translations: [WireTranslation], language: String) -> (title: String, body: String?, language: String?) {
        guard !language.isEmpty, let match = translations.first(where: { $0.lang.caseInsensitiveCompare(language) == .orderedSame }) else {
            return (title, body, nil)
        }
        return (match.title, match.body ?? body, match.lang)
    }

    /// An absolute http(s) URL, else `nil` (a broken image link must not fail a feed).
    static func url(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
            return nil
        }
        return url
    }
}

extension YoullDecoding {
    static func invalid(_ field: String, _ value: String, of owner: String) -> EngageError {
        EngageError(.decoding, "Youll sent an invalid \(field) '\(String(value.prefix(40)))' for \(owner).", providerID: .youll)
    }

    static func date(_ text: String, field: String, of owner: String) throws -> Date {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
        throw invalid(field, text, of: owner)
    }
}
