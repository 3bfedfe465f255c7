import Foundation

/// One request that reached an emulator, as the sandbox host recorded it.
///
/// Entries are recorded once the response is decided (after any injected delay and after the
/// emulator's handler ran), so ``status`` is what the client was sent, or `nil` when the connection
/// was dropped without a response.
public struct JournalEntry: Sendable, Hashable, Codable {
    /// A monotonically increasing number per host, in recording order.
    public var sequence: Int
    /// The emulator the request was addressed to (the first path segment).
    public var emulatorID: String
    /// The HTTP method, e.g. `GET`.
    public var method: String
    /// The path relative to the emulator's prefix, still percent-encoded, without the query, e.g.
    /// `/socket.gif`; `/` for the prefix itself.
    public var path: String
    /// The query string as sent (without `?`), or `nil` when the target had no `?`.
    public var rawQuery: String?
    /// The decoded query items in order (RFC 3986: `+` is a literal plus, `%2B` is a plus too,
    /// `%20` is a space).
    public var queryItems: [QueryItem]
    /// The header fields in order, with their names as received. `authorization` is kept verbatim;
    /// use ``redactedDescription`` for logs.
    public var headers: [HeaderField]
    /// The request body bytes.
    public var body: Data
    /// When the host received the request, from the host's injected clock.
    public var receivedAt: Date
    /// The response status sent, or `nil` when no response was sent.
    public var status: Int?
    /// The fault the injector applied to this request, if any.
    public var fault: Fault?
    /// How long the host took from receiving the request to deciding its response (injected delays
    /// and the emulator's work included), measured on the real clock; `nil` when unknown.
    public var duration: Duration?

    /// Creates an entry (normally only the host does).
    public init(
        sequence: Int, emulatorID: String, method: String, path: String, rawQuery: String?,
        queryItems: [QueryItem], headers: [HeaderField], body: Data, receivedAt: Date,
        status: Int?, fault: Fault?, duration: Duration? = nil
    ) {
        self.sequence = sequence
        self.emulatorID = emulatorID
        self.method = method
        self.path = path
        self.rawQuery = rawQuery
        self.queryItems = queryItems
        self.headers = headers
        self.body = body
        self.receivedAt = receivedAt
        self.status = status
        self.fault = fault
        self.duration = duration
    }
}

extension JournalEntry {
    /// First-value lookup of query items: `entry.query["page"]`.
    public var query: QueryLookup { QueryLookup(items: queryItems) }

    /// The value of the first header named `name` (case-insensitive), or `nil`.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The body as UTF-8 text, or `nil` when it is not valid UTF-8.
    public var bodyText: String? {
        String(data: body, encoding: .utf8)
    }

    /// Decodes the body as JSON.
    public func decodeBody<T: Decodable>(_ type: T.Type = T.self, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try decoder.decode(type, from: body)
    }
}
