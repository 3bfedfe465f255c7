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
@_spi(EngageProvider) public protocol GraphQLOperation: Sendable {
    /// The type of `variables`, encoded as the request's `variables` object.
    associatedtype Variables: Encodable & Sendable
    /// The type `data` decodes as.
    associatedtype ResponseData: Decodable & Sendable

    /// The query or mutation text.
    static var document: String { get }
    /// The operation name sent with the request, if any.
    static var operationName: String? { get }
    /// Whether the operation is a mutation (mutations are never retried automatically).
    static var isMutation: Bool { get }
    /// The values of the document's variables, sent as `variables`.
    var variables: Variables { get }
}

extension GraphQLOperation {
    /// No operation name by default.
    public static var operationName: String? { nil }
    /// Whether `document` defines a mutation (see `GraphQLDocument.containsMutation(_:)`).
    public static var isMutation: Bool {
        GraphQLDocument.containsMutation(document)
    }
}

/// Lexical facts about GraphQL documents.
@_spi(EngageProvider) public enum GraphQLDocument {
    /// Whether any top-level operation of `document` is a `mutation`.
    ///
    /// It scans the document's tokens outside every `{…}` and `(…)`, skipping `#` comments, strings and
    /// block strings, and looks at the keyword that opens each definition, so leading comments,
    /// whitespace, `fragment` definitions and several operations are all handled. The word `mutation`
    /// in a comment, a string, a field or an argument does not count.
    public static func containsMutation(_ document: String) -> Bool {
        let scalars = Array(document.unicodeScalars)
        var index = 0
        var braceDepth = 0
        var parenDepth = 0
        var expectingDefinition = true
        func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
        }
        func isNameContinue(_ scalar: Unicode.Scalar) -> Bool {
            isNameStart(scalar) || ("0"..."9").contains(scalar)
        }
        func hasPrefix(_ text: String, at position: Int) -> Bool {
            let pattern = Array(text.unicodeScalars)
            guard position + pattern.count <= scalars.count else { return false }
            return Array(scalars[position..<(position + pattern.count)]) == pattern
        }
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "#":
                while index < scalars.count, scalars[index] != "\n", scalars[index] != "\r" { index += 1 }
            case "\"":
                if hasPrefix("\"\"\"", at: index) {
                    index += 3
                    while index < scalars.count, !hasPrefix("\"\"\"", at: index) {
                        index += hasPrefix("\\\"\"\"", at: index) ? 4 : 1
                    }
                    index += 3
                } else {
                    index += 1
                    while index < scalars.count, scalars[index] != "\"", scalars[index] != "\n" {
                        index += scalars[index] == "\\" ? 2 : 1
                    }
                    index += 1
                }
                continue
            case "{":
                if braceDepth == 0, parenDepth == 0 { expectingDefinition = false }  // shorthand query
                braceDepth += 1
            case "}":
                braceDepth = max(0, braceDepth - 1)
                if braceDepth == 0, parenDepth == 0 { expectingDefinition = true }
            case "(":
                parenDepth += 1
            case ")":
                parenDepth = max(0, parenDepth - 1)
            default:
                if isNameStart(scalar) {
                    let start = index
                    while index < scalars.count, isNameContinue(scalars[index]) { index += 1 }
                    if braceDepth == 0, parenDepth == 0, expectingDefinition {
                        let keyword = String(String.UnicodeScalarView(scalars[start..<index]))
                        if keyword == "mutation" { return true }
                        expectingDefinition = false
                    }
                    continue
                }
            }
            index += 1
        }
        return false
    }
}

/// One entry of a GraphQL response's `errors` array.
@_spi(EngageProvider) public struct GraphQLErrorEntry: Decodable, Sendable, Equatable {
    /// The error's message.
    public var message: String
    /// Where in the response the error happened, if the server said.
    public var path: [GraphQLPathComponent]?
    /// `extensions.code`, as Hasura and most servers send it.
    public var code: String?

    enum CodingKeys: String, CodingKey { case message, path, extensions }
    enum ExtensionKeys: String, CodingKey { case code, path }

    /// An entry with `message` and optional `path` and `code`.
    public init(message: String, path: [GraphQLPathComponent]? = nil, code: String? = nil) {
        self.message = message
        self.path = path
        self.code = code
    }

    /// Decodes `message`, `path` and `extensions.code`.
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
@_spi(EngageProvider) public enum GraphQLPathComponent: Decodable, Sendable, Equatable, CustomStringConvertible {
    /// A field name.
    case field(String)
    /// A zero-based list index.
    case index(Int)

    /// Decodes a number as an index and a string as a field.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let index = try? container.decode(Int.self) {
            self = .index(index)
        } else {
            self = .field(try container.decode(String.self))
        }
    }

    /// The field name or the index.
    public var description: String {
        switch self {
        case let .field(name): name
        case let .index(index): String(index)
        }
    }
}
