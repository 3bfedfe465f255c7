import Foundation
import HTTPTypes

/// One call to a provider's backend as a value: what to send and how its answer reads, so that
/// `APIClient.send(_:)` returns the value itself.
///
/// ```swift
/// let profile = try await client.send(
///     APIRequest(.get, "/users/me", reading: .json(Profile.self), options: RequestOptions(authorization: .required))
/// )
/// ```
///
/// The request's operation (`options.operation`) is the one it is sent in unless it names another;
/// its answer is judged by the client's `ResponsePolicy`.
@_spi(EngageProvider) public struct APIRequest<Value: Sendable>: Sendable {
    /// The HTTP method.
    public var method: HTTPRequest.Method
    /// The path relative to the client's base URL, percent-encoded (build it with `APIClient.path(_:)`).
    public var path: String
    /// Query items, encoded per RFC 3986; items with a `nil` value are left out.
    public var query: [(String, String?)]
    /// A percent-encoded query appended verbatim after `query`, for a query whose exact bytes matter.
    public var encodedQuery: String?
    /// Header fields of this request; they win over the client's.
    public var headers: HTTPFields
    /// The body.
    public var body: APIClient.Body
    /// How the stack treats the request: authorisation, retries, limits, its operation.
    public var options: RequestOptions
    /// How a 2xx answer becomes the value.
    public var reading: Reading

    /// A request for `method` and `path` whose 2xx answer becomes a value by `reading`.
    public init(
        _ method: HTTPRequest.Method, _ path: String, query: [(String, String?)] = [], encodedQuery: String? = nil,
        headers: HTTPFields = [:], body: APIClient.Body = .none, reading: Reading, options: RequestOptions = RequestOptions()
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.encodedQuery = encodedQuery
        self.headers = headers
        self.body = body
        self.options = options
        self.reading = reading
    }

    /// How a 2xx answer becomes a call's value.
    public struct Reading: Sendable {
        /// Reads the answer; a thrown error becomes a `.decoding` failure naming the field's path.
        let read: @Sendable (HTTPResponseMessage) throws -> Value
        /// Whether the value is the body decoded as a type, shown to the response policy's rules.
        let isTyped: Bool

        /// A reading that turns the answer into the value with `read`; a rule sees the value as the
        /// decoded body when `isTyped`.
        package init(isTyped: Bool, read: @escaping @Sendable (HTTPResponseMessage) throws -> Value) {
            self.read = read
            self.isTyped = isTyped
        }
    }
}

extension APIRequest.Reading where Value: Decodable {
    /// The body decoded as JSON of `type` with `decoder`.
    public static func json(_ type: Value.Type, decoder: JSONDecoder = JSONDecoder()) -> Self {
        Self(isTyped: true) { response in try decoder.decode(Value.self, from: response.body) }
    }
}

extension APIRequest.Reading where Value == Data {
    /// The body's bytes, as sent.
    public static var bytes: Self { Self(isTyped: false) { $0.body } }
}

extension APIRequest.Reading where Value == HTTPResponseMessage {
    /// The whole answer: status, header fields and body (a download's body is in its file).
    public static var response: Self { Self(isTyped: false) { $0 } }
}
