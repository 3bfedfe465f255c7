import Foundation
import HTTPTypes

/// A request travelling through the transport stack: the head (method, URL, headers), the body and
/// the per-request options the middleware reads.
@_spi(EngageProvider) public struct HTTPRequestMessage: Sendable {
    /// Method, scheme, authority, path and header fields.
    public var head: HTTPRequest
    /// The body bytes, if any.
    public var body: Data?
    /// How middleware treats this request.
    public var options: RequestOptions

    /// A request with `head`, an optional `body` and its `options`.
    public init(head: HTTPRequest, body: Data? = nil, options: RequestOptions = RequestOptions()) {
        self.head = head
        self.body = body
        self.options = options
    }

    /// Whether the method is idempotent per RFC 9110 (GET, HEAD, OPTIONS, TRACE, PUT, DELETE), or the
    /// provider marked the request as safe to repeat.
    public var isSafeToRepeat: Bool {
        if options.isRepeatable { return true }
        switch head.method {
        case .get, .head, .options, .trace, .put, .delete: return true
        default: return false
        }
    }

    /// A description for logs: method and path, query values of redacted keys hidden.
    public func redactedSummary(using redactor: Redactor) -> String {
        "\(head.method.rawValue) \(head.scheme ?? "")://\(head.authority ?? "")\(redactor.redactPath(head.path ?? "/"))"
    }
}

/// A response: the head (status and header fields) and the body bytes.
@_spi(EngageProvider) public struct HTTPResponseMessage: Sendable {
    /// Status and header fields.
    public var head: HTTPResponse
    /// The body bytes (empty when there is none).
    public var body: Data
    /// A response with `head` and `body`.
    public init(head: HTTPResponse, body: Data = Data()) {
        self.head = head
        self.body = body
    }

    /// The status code.
    public var status: Int { head.status.code }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { head.status.kind == .successful }

    /// Throws `EngageError.responseTooLarge` when the announced `Content-Length` or the body is larger
    /// than `limit` bytes. Transports call it with `options.maxResponseBytes ?? defaultMaxResponseBytes`.
    public func enforceSizeLimit(_ limit: Int, providerID: ProviderID? = nil) throws(EngageError) {
        if let declared = HTTPResponseMessage.declaredLength(head.headerFields), declared > limit {
            throw EngageError.responseTooLarge(bytes: declared, limit: limit, httpStatus: status, providerID: providerID)
        }
        if body.count > limit {
            throw EngageError.responseTooLarge(bytes: body.count, limit: limit, httpStatus: status, providerID: providerID)
        }
    }

    /// The `Content-Length` of `fields`, when present and numeric.
    static func declaredLength(_ fields: HTTPFields) -> Int? {
        fields[.contentLength].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// A header value by name (case-insensitive), joined with ", " if repeated.
    public func header(_ name: String) -> String? {
        guard let fieldName = HTTPField.Name(name) else { return nil }
        return head.headerFields[fieldName]
    }
}
