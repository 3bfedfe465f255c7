/// A GraphQL operation: its document, its variables and the shape of its data.
///
/// ```swift
/// struct ContentFeed: GraphQLOperation {
///     struct Variables: Encodable, Sendable { var lang: String }
///     struct Data: Decodable, Sendable { var content: [ContentItem] }
///     static let document = "query ContentFeed($lang: String!) { content(lang: $lang) { id title } }"
///     static let operationName: String? = "ContentFeed"
///     var variables: Variables
/// }
/// let feed = try await graphQL.perform(ContentFeed(variables: .init(lang: "en")))
/// ```
public protocol GraphQLOperation: Sendable {
    associatedtype Variables: Encodable & Sendable
    associatedtype ResponseData: Decodable & Sendable

    /// The query or mutation text.
    static var document: String { get }
    /// The operation name sent with the request, if any.
    static var operationName: String? { get }
    /// Whether the operation is a mutation (mutations are never retried automatically).
    static var isMutation: Bool { get }
    var variables: Variables { get }
}

extension GraphQLOperation {
    public static var operationName: String? { nil }
    public static var isMutation: Bool {
        document.drop { $0.isWhitespace }.hasPrefix("mutation")
    }
}

/// One entry of a GraphQL response's `errors` array.
public struct GraphQLErrorEntry: Decodable, Sendable, Equatable {
    public var message: String
    public var path: [GraphQLPathComponent]?
    /// `extensions.code`, as Hasura and most servers send it.
    public var code: String?

    enum CodingKeys: String, CodingKey { case message, path, extensions }
    enum ExtensionKeys: String, CodingKey { case code, path }

    public init(message: String, path: [GraphQLPathComponent]? = nil, code: String? = nil) {
        self.message = message
        self.path = path
        self.code = code
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        message = try container.decode(String.self, forKey: .message)
        path = try container.decodeIfPresent([GraphQLPathComponent].self, forKey: .path)
        if let extensions = try? container.nestedContainer(keyedBy: ExtensionKeys.self, forKey: .extensions) {
            code = try? extensions.decodeIfPresent(String.self, forKey: .code)
        }
    }
}

/// A component of a GraphQL error path: a field name or a list index.
public enum GraphQLPathComponent: Decodable, Sendable, Equatable, CustomStringConvertible {
    case field(String)
    case index(Int)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let index = try? container.decode(Int.self) {
            self = .index(index)
        } else {
            self = .field(try container.decode(String.self))
        }
    }

    public var description: String {
        switch self {
        case let .field(name): name
        case let .index(index): String(index)
        }
    }
}
