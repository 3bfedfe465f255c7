@_spi(EngageProvider) import EngageCore
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

/// Reads a feed in one pass: sections of known kinds typed, the others kept as the JSON that was sent.
/// (Going through `JSONValue` for every section, and converting keys, cost milliseconds per feed.)
enum YoullFeedDecoding {
    private enum KindKey: String, CodingKey { case kind }

    /// A section of a known kind, or the JSON of a kind this version does not know.
    private struct Element: Decodable {
        var kind: String
        var section: WireFeedSection?
        var raw: JSONValue?

        init(from decoder: any Decoder) throws {
            kind = try decoder.container(keyedBy: KindKey.self).decode(String.self, forKey: .kind)
            if YoullFeedDecoding.isKnown(kind) {
                section = try WireFeedSection(from: decoder)
            } else {
                raw = try JSONValue(from: decoder)
            }
        }
    }

    static func isKnown(_ kind: String) -> Bool {
        YoullContentSection.Style(rawValue: kind) != nil || kind == "categories"
    }

    static func sections(field: String, in body: Data, context: YoullDecodingContext) throws -> [YoullFeedSection] {
        try YoullDecoding.graphQLField(field, as: [Element].self, in: body).map { element in
            guard let wire = element.section else { return .unknown(kind: element.kind, raw: element.raw ?? .null) }
            let title = YoullLocalization.pick(title: wire.title, body: nil, translations: wire.translations, language: context.language)
                .title
            if let style = YoullContentSection.Style(rawValue: wire.kind) {
                return .contents(
                    YoullContentSection(
                        id: wire.id, style: style, title: title, isDismissible: wire.dismissible,
                        items: try wire.items.map { try YoullContent(wire: $0, context: context) }
                    ))
            }
            return .categories(
                YoullCategorySection(
                    id: wire.id, title: title, categories: wire.categories.map { YoullCategory(wire: $0, context: context) }
                ))
        }
    }
}

/// Choosing translations, and lenient URLs.
enum YoullLocalization {
    static func pick(
        title: String, body: String?, translations: [WireTranslation], language: String
    ) -> (title: String, body: String?, language: String?) {
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
        guard let date = RFC3339.date(text) else { throw invalid(field, text, of: owner) }
        return date
    }
}

/// RFC 3339 timestamps (`2026-12-02T18:00:00Z`, with optional fractional seconds and a `±hh:mm`
/// offset), parsed by hand: Foundation's ISO 8601 parsers cost tens of microseconds a date on Linux,
/// which made a feed's dates most of its decoding time.
enum RFC3339 {
    static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t") || bytes[10] == UInt8(ascii: " "),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let year = number(bytes, 0, 4), let month = number(bytes, 5, 2), let day = number(bytes, 8, 2),
            let hour = number(bytes, 11, 2), let minute = number(bytes, 14, 2), let second = number(bytes, 17, 2),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, let digit = digit(bytes[index]) {
                fraction += Double(digit) * scale
                scale /= 10
                index += 1
            }
            guard index > start, index - start <= 9 else { return nil }
        }
        guard index < bytes.count else { return nil }
        var offset = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard bytes.count == index + 6, bytes[index + 3] == UInt8(ascii: ":"),
                let hours = number(bytes, index + 1, 2), let minutes = number(bytes, index + 4, 2), hours < 24, minutes < 60
            else { return nil }
            offset = (hours * 60 + minutes) * 60 * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
            index += 6
        default:
            return nil
        }
        guard index == bytes.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    private static func digit(_ byte: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private static func number(_ bytes: [UInt8], _ start: Int, _ length: Int) -> Int? {
        var value = 0
        for index in start..<(start + length) {
            guard let digit = digit(bytes[index]) else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
