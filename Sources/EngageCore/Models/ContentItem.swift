import Foundation

/// A piece of content (an article, a video, a journey step...), tagged with its provider.
public struct ContentItem: Codable, Sendable, Hashable, Identifiable {
    public var id: String
    public var providerID: ProviderID
    /// The provider's content type, e.g. `article`, `video`, `playlist`.
    public var type: String
    public var title: LocalizedText
    public var summary: LocalizedText?
    public var imageURL: URL?
    public var url: URL?
    public var publishedAt: Date?
    public var categories: [String]
    public var attributes: [String: String]

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
    public var language: String?
    public var category: String?
    public var text: String?
    public var page: PageRequest

    public init(language: String? = nil, category: String? = nil, text: String? = nil, page: PageRequest = PageRequest()) {
        self.language = language
        self.category = category
        self.text = text
        self.page = page
    }
}
