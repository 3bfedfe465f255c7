@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes

/// A transport that answers from closures instead of the network, and records every request.
///
/// ```swift
/// let transport = InMemoryTransport { request in
///     .json(["items": [1, 2, 3]])
/// }
/// transport.route(.post, "/auth/refresh") { _ in .json(["access_token": "…"]) }
/// ```
@_spi(EngageProvider) public final class InMemoryTransport: HTTPTransport {
    /// Answers one request.
    @_spi(EngageProvider) public typealias Handler = @Sendable (HTTPRequestMessage) async throws -> HTTPResponseMessage

    private struct Route {
        let method: HTTPRequest.Method?
        let pathPrefix: String
        let handler: Handler
    }

    private let routes = Locked<[Route]>([])
    private let recorded = Locked<[HTTPRequestMessage]>([])
    private let fallback: Handler

    /// A transport answering unmatched requests with `fallback` (404 by default).
    public init(fallback: @escaping Handler = { _ in HTTPResponseMessage(head: HTTPResponse(status: .notFound)) }) {
        self.fallback = fallback
    }

    /// Answers requests whose path (without query) starts with `pathPrefix`, and whose method is
    /// `method` if given. Later routes win over earlier ones.
    public func route(_ method: HTTPRequest.Method? = nil, _ pathPrefix: String, handler: @escaping Handler) {
        routes.withLock { $0.append(Route(method: method, pathPrefix: pathPrefix, handler: handler)) }
    }

    /// Every request sent so far, in order.
    @_spi(EngageProvider) public var requests: [HTTPRequestMessage] { recorded.value }

    /// The requests whose path (without query) starts with `pathPrefix`.
    @_spi(EngageProvider) public func requests(to pathPrefix: String) -> [HTTPRequestMessage] {
        recorded.value.filter { Self.pathWithoutQuery($0).hasPrefix(pathPrefix) }
    }

    /// Forgets recorded requests.
    public func clearRequests() {
        recorded.withLock { $0.removeAll() }
    }

    /// Records `request`, answers it from the last matching route (or the fallback) and enforces the size limit like `URLSessionTransport`.
    @_spi(EngageProvider) public func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
        recorded.withLock { $0.append(request) }
        try Task.checkCancellation()
        let path = Self.pathWithoutQuery(request)
        let handler = routes.withLock { routes in
            routes.last { route in
                (route.method == nil || route.method == request.head.method) && path.hasPrefix(route.pathPrefix)
            }?.handler
        }
        let response = try await (handler ?? fallback)(request)
        // The same limit, and the same error, as URLSessionTransport: Content-Length first, then the body.
        try response.enforceSizeLimit(request.options.maxResponseBytes ?? RequestOptions.defaultMaxResponseBytes)
        return response
    }

    private static func pathWithoutQuery(_ request: HTTPRequestMessage) -> String {
        let path = request.head.path ?? "/"
        return path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
    }
}

extension HTTPResponseMessage {
    /// A JSON response built from a JSON-compatible value (dictionaries, arrays, strings, numbers).
    public static func json(_ object: Any, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> HTTPResponseMessage {
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])) ?? Data()
        return .body(body, status: status, contentType: "application/json", headers: headers)
    }

    /// A JSON response encoding `value`.
    public static func encoded(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> HTTPResponseMessage {
        .body((try? JSONEncoder().encode(value)) ?? Data(), status: status, contentType: "application/json")
    }

    /// A response with `body` and a content type.
    public static func body(
        _ body: Data, status: HTTPResponse.Status = .ok, contentType: String = "application/octet-stream", headers: HTTPFields = [:]
    ) -> HTTPResponseMessage {
        var head = HTTPResponse(status: status)
        head.headerFields[.contentType] = contentType
        for field in headers { head.headerFields[field.name] = field.value }
        return HTTPResponseMessage(head: head, body: body)
    }

    /// An empty response with `status`.
    public static func status(_ status: HTTPResponse.Status, headers: HTTPFields = [:]) -> HTTPResponseMessage {
        var head = HTTPResponse(status: status)
        for field in headers { head.headerFields[field.name] = field.value }
        return HTTPResponseMessage(head: head)
    }
}
