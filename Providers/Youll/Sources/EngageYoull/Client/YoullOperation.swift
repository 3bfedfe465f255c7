@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes

/// A Youll query: a read, over GraphQL or REST, whose answer can be cached. Make one with the static
/// factories (`.homeFeed()`, `.content(id:)`, `.profile()`...) and run it with
/// ``YoullProvider/fetch(_:cachePolicy:)``:
///
/// ```swift
/// let feed = try await youll.fetch(.homeFeed())
/// let item = try await youll.fetch(.content(id: "c-101"), cachePolicy: .cacheFirst)
/// ```
public struct YoullQuery<Value: Sendable>: Sendable {
    /// The operation's name: its event name part (`custom_success_<name>_youll`) and the name token
    /// rules use (``YoullConfiguration/tokenRequiredOperations``).
    public let name: String
    /// Whether the operation reads the user's own data (and so needs a token by default).
    public let isUserScoped: Bool
    let request: YoullRequest
    let decode: @Sendable (Data, YoullDecodingContext) throws -> Value
}

/// A Youll mutation: a change, over GraphQL or REST, never cached and never retried automatically.
/// Make one with the static factories (`.like(contentID:)`, `.createPlaylist(name:)`...) and run it
/// with ``YoullProvider/perform(_:)``. A GraphQL mutation whose answer lists errors has failed.
public struct YoullMutation<Value: Sendable>: Sendable {
    /// The operation's name (see ``YoullQuery/name``).
    public let name: String
    /// Whether the operation changes the user's own data (and so needs a token by default).
    public let isUserScoped: Bool
    let request: YoullRequest
    let decode: @Sendable (Data, YoullDecodingContext) throws -> Value
}

/// A Youll operation as the core sees it (its event and its requests): named by its query or
/// mutation, the app's own included, or one of the provider's own. Never repeatable as a whole: a
/// query's requests are marked repeatable one by one (GraphQL queries, REST GETs), a mutation's never.
struct YoullNamedOperation: ProviderOperation {
    let name: OperationName

    /// The operation `name` (``YoullQuery/name`` or ``YoullMutation/name``).
    init(_ name: String) { self.name = OperationName(rawValue: name) }

    /// ``YoullProvider/logOut()``.
    static let logOut = YoullNamedOperation("log_out")
}

/// What the decoders of answers know besides the body.
struct YoullDecodingContext: Sendable {
    /// The configured `extraLang`.
    var language: String
}

/// How an operation goes on the wire.
enum YoullRequest: Sendable {
    /// A GraphQL document; `extraLang` is added to `variables` when the document declares it.
    case graphQL(document: String, operationName: String, variables: [String: JSONValue])
    /// A REST call relative to the REST base URL.
    case rest(method: HTTPRequest.Method, path: String, query: [(String, String?)], body: APIClient.Body)
    /// An operation refused before anything is sent.
    case invalid(EngageError)

    var takesLanguage: Bool {
        guard case let .graphQL(document, _, _) = self else { return false }
        return document.contains("$extraLang")
    }
}

extension YoullQuery {
    /// A GraphQL query whose `data.<field>` decodes as `Wire` and becomes the value by `transform`.
    static func graphQL<Wire: Decodable & Sendable>(
        _ name: String, userScoped: Bool = false, field: String, document: String, variables: [String: JSONValue] = [:],
        as wire: Wire.Type, transform: @escaping @Sendable (Wire, YoullDecodingContext) throws -> Value
    ) -> YoullQuery<Value> {
        YoullQuery(
            name: name, isUserScoped: userScoped,
            request: .graphQL(document: document, operationName: YoullNaming.operationName(name), variables: variables),
            decode: YoullDecoding.graphQL(field, as: Wire.self, transform)
        )
    }

    /// A query refused with `error` before anything is sent (its input is invalid).
    static func failing(_ name: String, _ error: EngageError) -> YoullQuery<Value> {
        YoullQuery(name: name, isUserScoped: false, request: .invalid(error), decode: { _, _ in throw error })
    }

    /// A REST `GET` whose body decodes as `Wire` and becomes the value by `transform`.
    static func rest<Wire: Decodable & Sendable>(
        _ name: String, userScoped: Bool = false, path: String, query: [(String, String?)] = [],
        as wire: Wire.Type, transform: @escaping @Sendable (Wire, YoullDecodingContext) throws -> Value
    ) -> YoullQuery<Value> {
        YoullQuery(
            name: name, isUserScoped: userScoped, request: .rest(method: .get, path: path, query: query, body: .none),
            decode: YoullDecoding.rest(Wire.self, transform)
        )
    }
}

extension YoullMutation {
    /// A GraphQL mutation whose `data.<field>` decodes as `Wire` and becomes the value by `transform`.
    static func graphQL<Wire: Decodable & Sendable>(
        _ name: String, userScoped: Bool = true, field: String, document: String, variables: [String: JSONValue],
        as wire: Wire.Type, transform: @escaping @Sendable (Wire, YoullDecodingContext) throws -> Value
    ) -> YoullMutation<Value> {
        YoullMutation(
            name: name, isUserScoped: userScoped,
            request: .graphQL(document: document, operationName: YoullNaming.operationName(name), variables: variables),
            decode: YoullDecoding.graphQL(field, as: Wire.self, transform)
        )
    }

    /// A REST call whose body decodes as `Wire` and becomes the value by `transform`.
    static func rest<Wire: Decodable & Sendable>(
        _ name: String, userScoped: Bool = true, method: HTTPRequest.Method, path: String, body: APIClient.Body = .none,
        as wire: Wire.Type, transform: @escaping @Sendable (Wire, YoullDecodingContext) throws -> Value
    ) -> YoullMutation<Value> {
        YoullMutation(
            name: name, isUserScoped: userScoped, request: .rest(method: method, path: path, query: [], body: body),
            decode: YoullDecoding.rest(Wire.self, transform)
        )
    }

    /// A REST call whose answer carries nothing the caller needs.
    static func restVoid(
        _ name: String, method: HTTPRequest.Method, path: String, body: APIClient.Body = .none
    ) -> YoullMutation<Void> where Value == Void {
        YoullMutation<Void>(
            name: name, isUserScoped: true, request: .rest(method: method, path: path, query: [], body: body), decode: { _, _ in }
        )
    }
}

/// Names on the wire.
enum YoullNaming {
    /// The GraphQL operation name of `name`: `home_feed` → `HomeFeed`.
    static func operationName(_ name: String) -> String {
        name.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}

/// Decoding of answers, with errors that name the path that failed.
enum YoullDecoding {
    /// `data.<field>` of a GraphQL answer as `Wire`, decoded by the core's GraphQL decoder (the same
    /// envelope rules and decoding errors as every GraphQL provider).
    static func graphQLField<Wire: Decodable & Sendable>(
        _ field: String, as type: Wire.Type, in body: Data, decoder: JSONDecoder = YoullJSON.decoder()
    ) throws -> Wire {
        let data = try GraphQLClient.decodeData([String: Wire].self, from: body, decoder: decoder, providerID: .youll)
        guard let value = data[field] else {
            throw EngageError(.decoding, "The Youll answer has no data.\(field).", providerID: .youll)
        }
        return value
    }

    /// The decoder of a GraphQL answer: `data.<field>` as `Wire`, then `transform`.
    static func graphQL<Wire: Decodable & Sendable, Value>(
        _ field: String, as type: Wire.Type, _ transform: @escaping @Sendable (Wire, YoullDecodingContext) throws -> Value
    ) -> @Sendable (Data, YoullDecodingContext) throws -> Value {
        { body, context in try transform(graphQLField(field, as: Wire.self, in: body), context) }
    }

    /// The decoder of a REST answer: the body as `Wire`, then `transform`.
    static func rest<Wire: Decodable & Sendable, Value>(
        _ type: Wire.Type, _ transform: @escaping @Sendable (Wire, YoullDecodingContext) throws -> Value
    ) -> @Sendable (Data, YoullDecodingContext) throws -> Value {
        { body, context in try transform(rest(Wire.self, from: body), context) }
    }

    static func rest<Wire: Decodable & Sendable>(_ type: Wire.Type, from body: Data) throws -> Wire {
        do {
            return try YoullJSON.decoder().decode(Wire.self, from: body)
        } catch let error as DecodingError {
            throw EngageError(decodingError: error, providerID: .youll)
        }
    }
}
