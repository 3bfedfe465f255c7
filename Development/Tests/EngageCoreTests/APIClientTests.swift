@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import HTTPTypes
import EngageTestTraits
import Testing

@Suite("APIClient paths and limits", .bounded)
struct APIClientTests {
    let client = APIClient(
        baseURL: URL(string: "https://api.example.com/v2")!, transport: InMemoryTransport { _ in .json(["ok": true]) }
    )

    @Test(
        "path(_:) keeps every hostile segment inside one segment",
        arguments: [
            ("x?admin=1", "/coupons/x%3Fadmin%3D1"),
            ("../users/me", "/coupons/..%2Fusers%2Fme"),
            ("a b", "/coupons/a%20b"),
            ("κουπόνι", "/coupons/%CE%BA%CE%BF%CF%85%CF%80%CF%8C%CE%BD%CE%B9"),
            ("100%", "/coupons/100%25"),
            ("a#frag", "/coupons/a%23frag"),
            ("..", "/coupons/%2E%2E"),
            ("ok-1_2.3~", "/coupons/ok-1_2.3~"),
        ])
    func encodedSegments(segment: String, expected: String) throws {
        #expect(APIClient.path("coupons", segment) == expected)
    }

    @Test("an encoded path reaches the server as one segment")
    func encodedPathIsSent() throws {
        let request = try client.makeRequest(.get, APIClient.path("coupons", "x?admin=1"), query: [("lang", "el")])
        #expect(request.head.path == "/v2/coupons/x%3Fadmin%3D1?lang=el")
        let unicode = try client.makeRequest(.get, APIClient.path("coupons", "κ 1"))
        #expect(unicode.head.path == "/v2/coupons/%CE%BA%201")
    }

    @Test(
        "raw paths with a query, a fragment, dot segments or unencoded characters are refused",
        arguments: [
            "/coupons/x?admin=1", "/coupons/x#top", "/coupons/../users/me", "/coupons/./x", "/coupons/%2e%2E/users",
            "/coupons/a b", "/coupons/κ", "/coupons/100%", "/coupons/%zz", "/coupons/\"x\"", "/a\\b", "..",
            APIClient.path("coupons", ".."), APIClient.path("coupons", "../users/me"), APIClient.path("x", "a/./b"),
            APIClient.path("x", "..\\admin"),
        ])
    func refusedPaths(path: String) throws {
        #expect(try throwsCode(.invalidInput) { _ = try client.makeRequest(.get, path) })
    }

    @Test(
        "valid percent-encoded paths are accepted unchanged",
        arguments: [
            "/coupons/abc", "coupons/abc", "/a/b/c/", "/users/me:profile@x", "/x/%2F%3F", "/sub-delims/!$&'()*+,;=", "/",
        ])
    func acceptedPaths(path: String) throws {
        let request = try client.makeRequest(.get, path)
        let expected = "/v2" + (path.hasPrefix("/") ? path : "/" + path)
        #expect(request.head.path == expected)
    }

    @Test("the client's response limit applies to requests without their own")
    func clientLimit() async throws {
        let transport = InMemoryTransport { _ in .body(Data(repeating: 0x61, count: 2048)) }
        let limited = APIClient(baseURL: URL(string: "https://api.example.com")!, transport: transport, maxResponseBytes: 1024)
        #expect(try limited.makeRequest(.get, "/x").options.maxResponseBytes == 1024)
        #expect(try limited.makeRequest(.get, "/x", options: RequestOptions(maxResponseBytes: 4096)).options.maxResponseBytes == 4096)
        let error = await #expect(throws: EngageError.self) { try await limited.data(.get, "/big") }
        #expect(error?.code == .responseTooLarge)
        #expect(error?.message.contains("2048 bytes, over the limit of 1024") == true)
        _ = try await limited.data(.get, "/big", options: RequestOptions(maxResponseBytes: 4096))
        #expect(APIClient(baseURL: URL(string: "https://api.example.com")!, transport: transport).maxResponseBytes == 16 * 1024 * 1024)
    }

    @Test("a Content-Length over the limit fails before the body is considered")
    func declaredLength() async throws {
        let transport = InMemoryTransport { _ in
            .body(Data("{}".utf8), contentType: "application/json", headers: [.contentLength: "50000000"])
        }
        let error = await #expect(throws: EngageError.self) {
            try await transport.send(
                HTTPRequestMessage(
                    head: HTTPRequest(method: .get, scheme: "https", authority: "api.example.com", path: "/x"),
                    options: RequestOptions(maxResponseBytes: 1024)
                ))
        }
        #expect(error?.code == .responseTooLarge)
        #expect(error?.message.contains("50000000") == true)
        // Without any limit set, a transport applies 16 MiB.
        let big = InMemoryTransport { _ in .body(Data(), headers: [.contentLength: String(16 * 1024 * 1024 + 1)]) }
        await #expect(throws: EngageError.self) {
            try await big.send(HTTPRequestMessage(head: HTTPRequest(method: .get, scheme: "https", authority: "a.b", path: "/")))
        }
    }
}
