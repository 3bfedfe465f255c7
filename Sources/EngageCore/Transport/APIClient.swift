import Foundation
import HTTPTypes

/// A provider's HTTP client: a base URL, default headers and the full transport stack
/// (retry → authorisation → timeout → logging → transport), with JSON helpers.
///
/// ```swift
/// let profile: Profile = try await client.json(Profile.self, .get, "/users/me", options: .init(authorization: .required))
/// let created: Card = try await client.json(Card.self, .post, "/cards", body: .json(newCard))
/// ```
public struct APIClient: Sendable {
    /// The URL every path is resolved against (its path is kept as a prefix).
    public let baseURL: URL
    /// The provider errors are attributed to.
    public let providerID: ProviderID?
    /// Header fields added to every request unless the request sets them.
    public var defaultHeaders: HTTPFields
    /// The stack requests go through.
    public let transport: any HTTPTransport

    public init(baseURL: URL, transport: any HTTPTransport, providerID: ProviderID? = nil, defaultHeaders: HTTPFields = [:]) {
        self.baseURL = baseURL
        self.transport = transport
        self.providerID = providerID
        self.defaultHeaders = defaultHeaders
    }

    /// A request body.
    public enum Body: Sendable {
        case none
        case data(Data, contentType: String)
        case json(any Encodable & Sendable)
        case form([(String, String)])

        func encoded() throws -> (Data, String)? {
            switch self {
            case .none:
                return nil
            case let .data(data, contentType):
                return (data, contentType)
            case let .json(value):
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                return (try encoder.encode(value), "application/json")
            case let .form(pairs):
                let text = pairs.map { "\(QueryEncoding.encode($0.0))=\(QueryEncoding.encode($0.1))" }.joined(separator: "&")
                return (Data(text.utf8), "application/x-www-form-urlencoded")
            }
        }
    }

    /// Builds a request for `path` (relative to `baseURL`) with `query` items encoded per RFC 3986.
    public func makeRequest(
        _ method: HTTPRequest.Method,
        _ path: String,
        query: [(String, String?)] = [],
        headers: HTTPFields = [:],
        body: Body = .none,
        options: RequestOptions = RequestOptions()
    ) throws -> HTTPRequestMessage {
        guard let components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false),
            let scheme = components.scheme, let host = components.host
        else {
            throw EngageError(.invalidConfiguration, "The base URL \(baseURL.absoluteString) is not an absolute HTTP URL.", providerID: providerID)
        }
        var basePath = components.percentEncodedPath
        if basePath.hasSuffix("/") { basePath.removeLast() }
        let relative = path.hasPrefix("/") ? path : "/" + path
        var fullPath = basePath + relative
        let encodedQuery = query.compactMap { name, value in
            value.map { "\(QueryEncoding.encode(name))=\(QueryEncoding.encode($0))" }
        }
        if !encodedQuery.isEmpty {
            fullPath += (fullPath.contains("?") ? "&" : "?") + encodedQuery.joined(separator: "&")
        }
        let authority = components.port.map { "\(host):\($0)" } ?? host
        var head = HTTPRequest(method: method, scheme: scheme, authority: authority, path: fullPath)
        for field in defaultHeaders where head.headerFields[field.name] == nil {
            head.headerFields.append(field)
        }
        for field in headers {
            head.headerFields[field.name] = field.value
        }
        var bodyData: Data?
        do {
            if let (data, contentType) = try body.encoded() {
                bodyData = data
                if head.headerFields[.contentType] == nil { head.headerFields[.contentType] = contentType }
            }
        } catch {
            throw EngageError(.encoding, "The request body could not be encoded: \(error)", providerID: providerID, underlyingError: error)
        }
        if head.headerFields[.accept] == nil { head.headerFields[.accept] = "application/json" }
        return HTTPRequestMessage(head: head, body: bodyData, options: options)
    }

    /// Sends `request` and returns the response whatever its status.
    public func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
        do {
            return try await transport.send(request)
        } catch {
            throw EngageError.wrapping(error, providerID: providerID)
        }
    }

    /// Sends the request and returns the body of a 2xx response; other statuses throw `EngageError`
    /// with the status and the server's message, if it sent one.
    public func data(
        _ method: HTTPRequest.Method,
        _ path: String,
        query: [(String, String?)] = [],
        headers: HTTPFields = [:],
        body: Body = .none,
        options: RequestOptions = RequestOptions()
    ) async throws -> Data {
        let request = try makeRequest(method, path, query: query, headers: headers, body: body, options: options)
        let response = try await send(request)
        try validate(response)
        return response.body
    }

    /// Sends the request and decodes a 2xx JSON response as `type`.
    public func json<Value: Decodable>(
        _ type: Value.Type,
        _ method: HTTPRequest.Method,
        _ path: String,
        query: [(String, String?)] = [],
        headers: HTTPFields = [:],
        body: Body = .none,
        options: RequestOptions = RequestOptions(),
        decoder: JSONDecoder = JSONDecoder()
    ) async throws -> Value {
        let data = try await data(method, path, query: query, headers: headers, body: body, options: options)
        return try decode(type, from: data, decoder: decoder)
    }

    /// Decodes `data` as `type`, turning failures into `.decoding` errors with the coding path.
    public func decode<Value: Decodable>(_ type: Value.Type, from data: Data, decoder: JSONDecoder = JSONDecoder()) throws -> Value {
        do {
            return try decoder.decode(type, from: data)
        } catch let error as DecodingError {
            throw EngageError(decodingError: error, providerID: providerID)
        } catch {
            throw EngageError(.decoding, "The response could not be decoded.", providerID: providerID, underlyingError: error)
        }
    }

    /// Throws unless `response` is 2xx.
    public func validate(_ response: HTTPResponseMessage) throws {
        guard !response.isSuccess else { return }
        throw EngageError.http(status: response.status, providerID: providerID, message: Self.serverMessage(in: response))
    }

    /// A short, redacted message from an error body (`message`, `error_description`, `error` or
    /// `detail`), if any.
    static func serverMessage(in response: HTTPResponseMessage) -> String? {
        guard !response.body.isEmpty, response.body.count <= 65_536,
            let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        else { return nil }
        for key in ["message", "error_description", "error", "detail", "msg"] {
            if let text = object[key] as? String, !text.isEmpty {
                let clipped = String(text.prefix(300))
                return "The server answered with HTTP \(response.status): \(Redactor().redact(text: clipped))"
            }
        }
        return nil
    }
}

/// RFC 3986 query encoding: everything but unreserved characters is percent-encoded, so `+`, `&`,
/// `=` and spaces in values survive any form decoder.
public enum QueryEncoding {
    private static let unreserved: CharacterSet = {
        var set = CharacterSet()
        set.insert(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return set
    }()

    /// Percent-encodes `value` for a query name or value.
    public static func encode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }
}
