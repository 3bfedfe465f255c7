import Foundation

/// A piece of content (an article, a video, a journey step...), tagged with its provider.
public struct ContentItem: Codable, Sendable, Hashable, Identifiable {
    /// Unique within the provider.
    public var id: String
    /// The provider the item comes from.
    public var providerID: ProviderID
    /// The provider's content type, e.g. `article`, `video`, `playlist`.
    public var type: String
    /// The title, possibly in several languages.
    public var title: LocalizedText
    /// A short summary, if any.
    public var summary: LocalizedText?
    /// A cover image.
    public var imageURL: URL?
    /// Where the full content lives (a web page, a video).
    public var url: URL?
    /// When it was published, if known.
    public var publishedAt: Date?
    /// The provider's category names.
    public var categories: [String]
    /// Provider-specific extras, flat strings only.
    public var attributes: [String: String]

    /// A content item; everything but the id, provider, type and title is optional.
    public init(
        id: String, providerID: ProviderID, type: String, title: LocalizedText, summary: LocalizedText? = nil,
        imageURL: URL? = nil, url: URL? = nil, publishedAt: Date? = nil, categories: [String] = [],
        attributes: [String: String] = [:]
    ) {
        self.id = id
        self.providerID = providerID
        self.type = type
        self.title = title
        self.summary = summary
        self.imageURL = imageURL
        self.url = url
        self.publishedAt = publishedAt
        self.categories = categories
        self.attributes = attributes
    }
}

/// Which content to ask for.
public struct ContentQuery: Codable, Sendable, Hashable {
    /// Preferred language (BCP 47), if any.
    public var language: String?
    /// Only items of this category, if given.
    public var category: String?
    /// Free text to search for, if given.
    public var text: String?
    /// Which page of results.
    public var page: PageRequest

    /// A query; with no arguments, the first page of everything.
    public init(language: String? = nil, category: String? = nil, text: String? = nil, page: PageRequest = PageRequest()) {
        self.language = language
        self.category = category
        self.text = text
        self.page = page
    }
}
