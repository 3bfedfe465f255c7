import Foundation
import HTTPTypes
import Logging

/// A provider's HTTP client: a base URL, default headers, its authoriser, its response policy, its
/// retry policy and the transport below them (timeout → logging → transport), with its redactor. Every
/// request of a provider goes through one of these.
///
/// ```swift
/// let profile: Profile = try await client.json(Profile.self, .get, "/users/me", options: .init(authorization: .required))
/// let created: Card = try await client.json(Card.self, .post, "/cards", body: .json(newCard))
/// ```
///
/// **One call, one path.** A call (``send(_:)``, which `json`, `data` and `download` build on) is one
/// loop: authorise, send, have the ``ResponsePolicy`` judge the answer once (value, failure or refused
/// credential), and act on the verdict. A failure the verdict calls retryable is sent again per the
/// retry policy (`network.maxAttempts`, only when a resend is safe); a refused credential is renewed
/// by the authoriser and the request sent once more, as the call's last send: at most
/// `maxAttempts + 1` sends, all within the call's deadline.
@_spi(EngageProvider) public struct APIClient: Sendable {
    /// The URL every path is resolved against (its path is kept as a prefix).
    public let baseURL: URL
    /// The provider errors are attributed to.
    public let providerID: ProviderID?
    /// Header fields added to every request unless the request sets them.
    public var defaultHeaders: HTTPFields
    /// Header fields computed for every request as it is built, unless the request sets them: values
    /// that change at run time (a device id a reset replaces).
    public var requestHeaders: (@Sendable () -> HTTPFields)?
    /// What each attempt is sent through, below authorisation and retries: the timeout and logging
    /// middleware and the bottom transport for providers (`ProviderContext.makeAPIClient`).
    public let transport: any HTTPTransport
    /// Adds credentials to each attempt and renews one the server refused.
    public var authorizer: any RequestAuthorizer
    /// Judges every answer once: value, failure, or refused credential.
    public var policy: ResponsePolicy
    /// When a failure the policy calls retryable is sent again (none by default; providers get
    /// `network.retryPolicy`).
    public var retry: RetryPolicy
    /// The largest response body accepted, in bytes, for requests whose options set no limit of their
    /// own (16 MiB by default; providers get `network.maxResponseBytes`).
    public var maxResponseBytes: Int
    /// The longest one call may take, all attempts and waits included, for requests whose options set
    /// no deadline of their own (`network.callDeadlineSeconds` for providers, 120 s by default).
    public var callDeadline: Duration
    /// Hides secrets in the server messages put into errors (the provider's redactor for providers).
    public var redactor: Redactor
    /// Whether this client's requests may go over a cellular network (`RequestOptions.allowsCellularAccess`);
    /// `false` keeps every request it builds on Wi-Fi or wired networks.
    public var allowsCellularAccess: Bool
    /// The clock retry waits are slept on and a `Retry-After` date is read against (the provider's
    /// clock; the system's by default).
    public var clock: any EngageClock
    /// The source of the retry waits' jitter.
    let random: any RandomSource
    /// Receives one debug line per retry.
    let logger: Logger

    /// `baseURL`'s scheme, authority and path (without a trailing `/`), read once; `nil` when it is not
    /// an absolute HTTP URL (every request then fails with `.invalidConfiguration`).
    private let base: (scheme: String, authority: String, path: String)?

    /// A client for `baseURL` sending through `transport`, attributing errors to `providerID`, adding
    /// `defaultHeaders` and `requestHeaders()` to every request, accepting response bodies up to
    /// `maxResponseBytes`, authorising with `authorizer`, judging answers with `policy`, retrying per
    /// `retry` (sleeping on `clock`, jittered by `random`), redacting server messages with `redactor`,
    /// and keeping requests off cellular networks unless `allowsCellularAccess`.
    public init(
        baseURL: URL, transport: any HTTPTransport, providerID: ProviderID? = nil, defaultHeaders: HTTPFields = [:],
        maxResponseBytes: Int = RequestOptions.defaultMaxResponseBytes, authorizer: any RequestAuthorizer = NoAuthorizer(),
        policy: ResponsePolicy = .standard, retry: RetryPolicy = .none, redactor: Redactor = Redactor(),
        callDeadline: Duration = .seconds(120), requestHeaders: (@Sendable () -> HTTPFields)? = nil, allowsCellularAccess: Bool = true,
        clock: any EngageClock = SystemClock(), random: any RandomSource = SystemRandomSource(),
        logger: Logger = Logger(label: "engage.http")
    ) {
        self.clock = clock
        self.random = random
        self.logger = logger
        self.allowsCellularAccess = allowsCellularAccess
        self.requestHeaders = requestHeaders
        self.callDeadline = callDeadline
        self.baseURL = baseURL
        base = Self.parts(of: baseURL)
        self.transport = transport
        self.providerID = providerID
        self.defaultHeaders = defaultHeaders
        self.maxResponseBytes = maxResponseBytes
        self.authorizer = authorizer
        self.policy = policy
        self.retry = retry
        self.redactor = redactor
    }

    /// A request body.
    public enum Body: Sendable {
        /// No body.
        case none
        /// Raw bytes with their content type.
        case data(Data, contentType: String)
        /// A value encoded as JSON (keys sorted), sent as `application/json`.
        case json(any Encodable & Sendable)
        /// Name-value pairs encoded as `application/x-www-form-urlencoded` (RFC 3986 encoding).
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

    /// Builds a request for `path` (relative to `baseURL`) with `query` items encoded per RFC 3986
    /// (items with a `nil` value are left out).
    ///
    /// `path` must be percent-encoded already: build paths that contain values (ids, codes, user input)
    /// with `APIClient.path(_:)`, which encodes each segment, e.g. `APIClient.path("coupons", code)`.
    /// A path with characters outside RFC 3986 `pchar` and `/`, with `?` or `#` (use `query`), with a
    /// malformed percent escape, or with a `.` or `..` segment (even percent-encoded, or between encoded
    /// slashes) is refused with
    /// `.invalidInput` before anything is sent. The request gets the client's `maxResponseBytes` unless
    /// `options` sets a limit. `encodedQuery` is appended verbatim after `query` (for a query whose exact
    /// bytes matter, such as one that was checksummed); it must be percent-encoded already and is refused
    /// with `.invalidInput` otherwise.
    public func makeRequest(
        _ method: HTTPRequest.Method,
        _ path: String,
        query: [(String, String?)] = [],
        encodedQuery: String? = nil,
        headers: HTTPFields = [:],
        body: Body = .none,
        options: RequestOptions = RequestOptions()
    ) throws(EngageError) -> HTTPRequestMessage {
        guard let base else {
            throw EngageError(
                .invalidConfiguration, "The base URL \(redactor.redact(url: baseURL)) is not an absolute HTTP URL.", providerID: providerID)
        }
        try Self.validatePath(path, providerID: providerID)
        let relative = path.hasPrefix("/") ? path : "/" + path
        var fullPath = base.path + relative
        var queryParts = query.compactMap { name, value in
            value.map { "\(QueryEncoding.encode(name))=\(QueryEncoding.encode($0))" }
        }
        if let encodedQuery, !encodedQuery.isEmpty {
            try Self.validateEncodedQuery(encodedQuery, providerID: providerID)
            queryParts.append(encodedQuery)
        }
        if !queryParts.isEmpty {
            fullPath += (fullPath.utf8.contains(UInt8(ascii: "?")) ? "&" : "?") + queryParts.joined(separator: "&")
        }
        var head = HTTPRequest(method: method, scheme: base.scheme, authority: base.authority, path: fullPath)
        for field in defaultHeaders where head.headerFields[field.name] == nil {
            head.headerFields.append(field)
        }
        for field in requestHeaders?() ?? [:] {
            head.headerFields[field.name] = field.value
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
        var options = options
        if options.maxResponseBytes == nil { options.maxResponseBytes = maxResponseBytes }
        if !allowsCellularAccess { options.allowsCellularAccess = false }
        if options.operation == nil { options.operation = CurrentOperation.value }
        if options.operation?.isRepeatable == true { options.isRepeatable = true }
        return HTTPRequestMessage(head: head, body: bodyData, options: options)
    }

    /// The scheme, authority and percent-encoded path (without a trailing `/`) of `url`, or `nil` when
    /// it has no scheme or host.
    private static func parts(of url: URL) -> (scheme: String, authority: String, path: String)? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false), let scheme = components.scheme,
            let host = components.host
        else { return nil }
        var path = components.percentEncodedPath
        if path.hasSuffix("/") { path.removeLast() }
        return (scheme, components.port.map { "\(host):\($0)" } ?? host, path)
    }

    /// A path of percent-encoded `segments`, each encoded so that it stays one segment whatever it
    /// contains (`/`, `?`, `#`, `%`, spaces, any Unicode): `APIClient.path("coupons", "a/b?c")` is
    /// `"/coupons/a%2Fb%3Fc"`. A segment that is `.` or `..`, or contains them between slashes (such as
    /// `../users/me`), is encoded but then refused by `makeRequest`, because servers that decode before
    /// normalising would resolve it; an empty segment stays empty, so check that ids are not empty.
    public static func path(_ segments: String...) -> String {
        "/"
            + segments.map { segment -> String in
                if segment == "." || segment == ".." { return String(repeating: "%2E", count: segment.count) }
                return QueryEncoding.encode(segment)
            }.joined(separator: "/")
    }

    /// Throws `.invalidInput` unless `path` is a percent-encoded path without query, fragment or dot
    /// segments.
    static func validatePath(_ path: String, providerID: ProviderID?) throws(EngageError) {
        func refuse(_ reason: String) -> EngageError {
            EngageError(
                .invalidInput, "The request path is invalid: \(reason).", providerID: providerID,
                recoverySuggestion:
                    "Build paths with APIClient.path(_:), which percent-encodes each segment, and pass query items separately."
            )
        }
        switch encodingProblem(in: path, allowed: pathCharacters) {
        case .malformedEscape:
            throw refuse("'%' must start a percent escape such as %25")
        case let .disallowed(byte) where byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#"):
            throw refuse("it contains '\(Character(Unicode.Scalar(byte)))'; pass query items in `query`")
        case .disallowed:
            throw refuse("it contains a character that must be percent-encoded")
        case nil:
            break
        }
        for segment in path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            // Also when encoded (`%2E%2E`, `..%2F`): a server that decodes before it normalises would
            // otherwise climb out of the intended resource.
            let decoded = QueryEncoding.percentDecoded(Array(segment)) ?? Array(segment)
            let parts = decoded.split(omittingEmptySubsequences: false) { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") }
            if parts.contains(where: { $0.elementsEqual([UInt8(ascii: ".")]) || $0.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) })
            {
                throw refuse("it contains a '.' or '..' segment (possibly percent-encoded)")
            }
        }
    }

    /// Throws `.invalidInput` unless `query` is a percent-encoded query (RFC 3986 `query` characters,
    /// well-formed escapes, no `#`).
    static func validateEncodedQuery(_ query: String, providerID: ProviderID?) throws(EngageError) {
        switch encodingProblem(in: query, allowed: queryCharacters) {
        case .malformedEscape:
            throw EngageError(.invalidInput, "The encoded query has a malformed percent escape.", providerID: providerID)
        case .disallowed:
            throw EngageError(.invalidInput, "The encoded query contains a character that must be percent-encoded.", providerID: providerID)
        case nil:
            break
        }
    }

    /// What is wrong with `text` as percent-encoded text whose other bytes must be in `allowed`.
    private enum EncodingProblem {
        /// A `%` that does not start two hex digits.
        case malformedEscape
        /// The first byte outside `allowed`.
        case disallowed(UInt8)
    }

    /// The first problem of `text` as percent-encoded text over `allowed`, `nil` when there is none.
    private static func encodingProblem(in text: String, allowed: Set<UInt8>) -> EncodingProblem? {
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, QueryEncoding.hexValue(bytes[index + 1]) != nil,
                    QueryEncoding.hexValue(bytes[index + 2]) != nil
                else { return .malformedEscape }
                index += 3
                continue
            }
            guard allowed.contains(byte) else { return .disallowed(byte) }
            index += 1
        }
        return nil
    }

    /// RFC 3986 `pchar` (unreserved, sub-delims, `:` and `@`; `%` is checked separately) plus `/`.
    private static let pathCharacters: Set<UInt8> = Set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/".utf8
    )

    /// RFC 3986 `query`: `pchar`, `/` and `?`.
    private static let queryCharacters: Set<UInt8> = pathCharacters.union([UInt8(ascii: "?")])

    /// Sends the request as one call (see ``send(_:)``) and returns the body of a 2xx answer; any other
    /// answer is the failure the ``policy`` makes of it.
    public func data(
        _ method: HTTPRequest.Method,
        _ path: String,
        query: [(String, String?)] = [],
        encodedQuery: String? = nil,
        headers: HTTPFields = [:],
        body: Body = .none,
        options: RequestOptions = RequestOptions()
    ) async throws(EngageError) -> Data {
        try await send(
            APIRequest(
                method, path, query: query, encodedQuery: encodedQuery, headers: headers, body: body, reading: .bytes, options: options))
    }

    /// Downloads a 2xx response body into the file at `destination`, reporting progress as bytes
    /// arrive, and returns the response (its `body` empty) and the number of bytes written.
    ///
    /// The body never sits in memory with a streaming transport (the default `URLSessionTransport`);
    /// other transports hand it back whole and it is written here, with one final progress report.
    /// `options.maxResponseBytes` (else the client's limit) bounds the file. Any other status is the
    /// failure the ``policy`` makes of it (with the server's message), and the file is removed.
    ///
    /// ```swift
    /// let (_, bytes) = try await client.download(.get, "mainnet/explore.zip", to: partialFile) { progress in
    ///     logger.debug("received \(progress.receivedBytes) bytes")
    /// }
    /// ```
    public func download(
        _ method: HTTPRequest.Method,
        _ path: String,
        query: [(String, String?)] = [],
        headers: HTTPFields = [:],
        to destination: URL,
        options: RequestOptions = RequestOptions(),
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(EngageError) -> (response: HTTPResponseMessage, bytes: Int64) {
        var options = options
        options.bodyFile = ResponseBodyFile(url: destination, progress: progress)
        try? FileManager.default.removeItem(at: destination)
        var response: HTTPResponseMessage
        do {
            response = try await send(APIRequest(method, path, query: query, headers: headers, reading: .response, options: options))
        } catch {
            try? FileManager.default.removeItem(at: destination)
            throw error
        }
        if !response.body.isEmpty || !FileManager.default.fileExists(atPath: destination.path) {
            // A transport that does not stream: the body came back in memory.
            do {
                try response.body.write(to: destination)
            } catch {
                throw EngageError(
                    .storage, "The download could not be written to \(destination.lastPathComponent).", providerID: providerID,
                    underlyingError: error)
            }
            let bytes = Int64(response.body.count)
            progress?(TransferProgress(receivedBytes: bytes, expectedBytes: bytes))
            response.body = Data()
            return (response, bytes)
        }
        return (response, Self.fileSize(destination) ?? 0)
    }

    static func fileSize(_ url: URL) -> Int64? {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.int64Value
    }

    /// Sends the request and decodes a 2xx JSON answer as `type`.
    public func json<Value: Decodable & Sendable>(
        _ type: Value.Type,
        _ method: HTTPRequest.Method,
        _ path: String,
        query: [(String, String?)] = [],
        encodedQuery: String? = nil,
        headers: HTTPFields = [:],
        body: Body = .none,
        options: RequestOptions = RequestOptions(),
        decoder: JSONDecoder = JSONDecoder()
    ) async throws(EngageError) -> Value {
        try await send(
            APIRequest(
                method, path, query: query, encodedQuery: encodedQuery, headers: headers, body: body,
                reading: .json(type, decoder: decoder),
                options: options))
    }

    /// Decodes `data` as `type`, turning failures into `.decoding` errors with the coding path.
    public func decode<Value: Decodable>(
        _ type: Value.Type, from data: Data, decoder: JSONDecoder = JSONDecoder()
    ) throws(EngageError) -> Value {
        do {
            return try decoder.decode(type, from: data)
        } catch {
            throw decodingError(error)
        }
    }

    /// `error`, thrown while reading an answer, as a `.decoding` error with the coding path.
    func decodingError(_ error: any Error) -> EngageError {
        if let error = error as? EngageError { return EngageError.wrapping(error, providerID: providerID) }
        if let error = error as? DecodingError { return EngageError(decodingError: error, providerID: providerID) }
        return EngageError(.decoding, "The response could not be decoded.", providerID: providerID, underlyingError: error)
    }

    /// A short, redacted message from an error body (`message`, `error_description`, `error`,
    /// `detail` or `msg`), if any.
    public func serverMessage(in response: HTTPResponseMessage) -> String? {
        guard !response.body.isEmpty, response.body.count <= 65_536,
            let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        else { return nil }
        for key in ["message", "error_description", "error", "detail", "msg"] {
            if let text = object[key] as? String, !text.isEmpty {
                return "The server answered with HTTP \(response.status): \(redactor.redact(text: String(text.prefix(300))))"
            }
        }
        return nil
    }
}

/// RFC 3986 query encoding: everything but unreserved characters is percent-encoded, so `+`, `&`,
/// `=` and spaces in values survive any form decoder.
package enum QueryEncoding {
    /// Whether each byte is unreserved (`A-Z a-z 0-9 - . _ ~`).
    private static let unreserved: [Bool] = (0...255).map { value in
        let byte = UInt8(value)
        return (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// The value of a hexadecimal digit, `nil` for any other byte.
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `bytes` with every percent escape decoded (no other change: `+` stays a plus), or `nil` when a
    /// `%` does not start two hexadecimal digits.
    package static func percentDecoded(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.contains(UInt8(ascii: "%")) else { return bytes }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else {
                    return nil
                }
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(byte)
                index += 1
            }
        }
        return decoded
    }

    /// Percent-encodes `value` for a query name or value: each UTF-8 byte outside the unreserved set
    /// becomes `%XX`.
    public static func encode(_ value: String) -> String {
        let utf8 = value.utf8
        if utf8.allSatisfy({ unreserved[Int($0)] }) { return value }
        var encoded: [UInt8] = []
        encoded.reserveCapacity(utf8.count * 3)
        for byte in utf8 {
            if unreserved[Int(byte)] {
                encoded.append(byte)
            } else {
                encoded.append(UInt8(ascii: "%"))
                encoded.append(hexDigits[Int(byte >> 4)])
                encoded.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }
}
