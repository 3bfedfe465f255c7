// Support for the CroboxEmulator*Tests files (no tests here): a harness that serves one
// CroboxEmulator on an ephemeral loopback port and talks to it with URLSession.
@_spi(EngageProvider) @testable import EngageCore
import CroboxEmulator
@_spi(EngageProvider) @testable import EngageCrobox
@_spi(EngageProvider) import EngageSandbox
import Foundation
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP answer of the emulator.
struct CroboxEmulatorReply: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data

    /// The value of the header `name` (case-insensitive).
    func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The body decoded as `type`.
    func json<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: body)
    }

    /// The body as a promotions response.
    func promotions() throws -> CroboxPromotionsResponse {
        try json(CroboxPromotionsResponse.self)
    }

    /// The `error` of a JSON error body.
    var errorCode: String? {
        (try? json([String: String].self))?["error"]
    }
}

/// A running sandbox host serving one Crobox emulator, with a private URL session.
struct CroboxEmulatorHarness: Sendable {
    /// A valid visitor id in the uppercase form the iOS SDK sends.
    static let visitor = "6C1B4C2E-3A7F-4E0B-9D36-2F7E5A1B9C40"
    /// Another visitor.
    static let otherVisitor = "0F8E2D4C-5B6A-4978-8C1D-3E2F1A0B9C8D"
    /// A view id.
    static let view = "A9F3E1D2-7C4B-4A8E-B5F6-0D1C2B3A4958"

    let host: SandboxHost
    let emulator: CroboxEmulator
    let baseURL: URL
    let session: URLSession

    /// Serves `emulator` on port 0 with `seed`, runs `body`, and always stops the host.
    @discardableResult
    static func run<T>(
        _ emulator: CroboxEmulator = CroboxEmulator(),
        seed: UInt64 = SandboxConfiguration.defaultSeed,
        _ body: (CroboxEmulatorHarness) async throws -> T
    ) async throws -> T {
        let fixedNow = Date(timeIntervalSince1970: 1_711_554_991.093)
        let host = SandboxHost(emulators: [emulator], configuration: SandboxConfiguration(seed: seed, now: { fixedNow }))
        let endpoints = try await host.start()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 10
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let session = URLSession(configuration: configuration)
        defer { session.invalidateAndCancel() }
        do {
            let baseURL = try #require(endpoints.baseURL(for: emulator.id))
            let result = try await body(CroboxEmulatorHarness(host: host, emulator: emulator, baseURL: baseURL, session: session))
            await host.stop()
            return result
        } catch {
            await host.stop()
            throw error
        }
    }

    /// `GET /socket.gif?<rawQuery>` (the query is sent exactly as given).
    func event(_ rawQuery: String) async throws -> CroboxEmulatorReply {
        try await send("GET", path: "/socket.gif", rawQuery: rawQuery)
    }

    /// `GET /socket.gif` with `items` RFC 3986 encoded, in order.
    func event(_ items: [(String, String)]) async throws -> CroboxEmulatorReply {
        try await event(CroboxWire.encodeQuery(items))
    }

    /// `POST /promotions?<rawQuery>` with a form body.
    func promotions(
        _ rawQuery: String, body: String, contentType: String? = "application/x-www-form-urlencoded"
    ) async throws -> CroboxEmulatorReply {
        try await send("POST", path: "/promotions", rawQuery: rawQuery, body: Data(body.utf8), contentType: contentType)
    }

    /// `POST /promotions` for `productIDs` with the common parameters of an iOS request.
    func promotions(
        productIDs: [String], visitor: String = Self.visitor, placeholder: String = "1", container: String = "xlrc9t"
    ) async throws -> CroboxEmulatorReply {
        let query = CroboxWire.encodeQuery(Self.commonItems(container: container, visitor: visitor) + [("vpid", placeholder)])
        return try await promotions(query, body: CroboxWire.promotionsBody(productIDs: productIDs))
    }

    /// `cid`, `e`, `vid`, `pid`, `pt`, `sdk`, `lc`, `ts` as the iOS SDK sends them.
    static func commonItems(container: String = "xlrc9t", visitor: String = Self.visitor, counter: Int = 0) -> [(String, String)] {
        [
            ("cid", container), ("e", String(counter)), ("vid", view), ("pid", visitor), ("pt", "2"), ("sdk", "1"),
            ("lc", "en_US"), ("ts", "lu9znf91"),
        ]
    }

    /// `items` encoded the way the Android SDK sends them: the encoded query, then `&z=<checksum>`.
    static func androidQuery(_ items: [(String, String)]) -> String {
        let encoded = CroboxWire.encodeQuery(items)
        return encoded + "&z=" + CroboxWire.checksum(ofEncodedQuery: encoded)
    }

    private func send(
        _ method: String, path: String, rawQuery: String, body: Data? = nil, contentType: String? = nil
    ) async throws -> CroboxEmulatorReply {
        let url = try #require(URL(string: baseURL.absoluteString + path + "?" + rawQuery))
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return CroboxEmulatorReply(status: http.statusCode, headers: headers, body: data)
    }
}
