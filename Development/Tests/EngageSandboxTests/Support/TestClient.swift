import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A URLSession-based HTTP client for tests: a fresh ephemeral session (so no connection is shared
/// with another test), JSON helpers, and the status and headers of every response.
final class TestClient: Sendable {
    struct Reply: Sendable {
        var status: Int
        var headers: [String: String]
        var body: Data

        func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }

        func json<T: Decodable>(_ type: T.Type = T.self) throws -> T {
            try JSONDecoder().decode(type, from: body)
        }

        var text: String { String(decoding: body, as: UTF8.self) }
    }

    let session: URLSession

    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 10
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
    }

    deinit {
        session.invalidateAndCancel()
    }

    func send(
        _ method: String, _ url: URL, body: Data? = nil, headers: [String: String] = [:]
    ) async throws -> Reply {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name] = value }
        }
        return Reply(status: http.statusCode, headers: fields, body: data)
    }

    func get(_ url: URL, headers: [String: String] = [:]) async throws -> Reply {
        try await send("GET", url, headers: headers)
    }

    func postJSON(_ url: URL, _ object: some Encodable, headers: [String: String] = [:]) async throws -> Reply {
        var headers = headers
        headers["Content-Type"] = "application/json"
        return try await send("POST", url, body: try JSONEncoder().encode(object), headers: headers)
    }
}
