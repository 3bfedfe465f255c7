@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import HTTPTypes
import ReferenceEmulator
import EngageTestTraits
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Redirects never carry credentials or bodies to another origin (see `RedirectRule`): host A answers
/// `/moved` with a redirect to host B (another port, so another origin), and B's journal must never show
/// a credential header or a body, whatever the status, method and kind of credential.
@Suite("URLSessionTransport: redirects keep credentials at their origin", .bounded(deadline: .seconds(60)), .bounded)
struct TransportRedirectTests {
    enum Credential: String, CaseIterable, Sendable {
        case bearer, basic, signed

        /// The secret header fields of this kind, as providers send them.
        var fields: [(String, String)] {
            switch self {
            case .bearer: [("Authorization", "Bearer s3cret-bearer-token")]
            case .basic: [("Authorization", "Basic Y29zbW90ZTpzM2NyZXQtcGFzc3dvcmQ=")]
            case .signed: [("loyalty-signature", "s3cret-signature-1234"), ("loyalty-web-id", "s3cret-web-id-5678")]
            }
        }
    }

    enum Session: String, CaseIterable, Sendable {
        /// The transport's own session (what apps get).
        case own
        /// A session the app passed in.
        case passedIn

        func makeTransport() -> URLSessionTransport {
            switch self {
            case .own: URLSessionTransport()
            case .passedIn: URLSessionTransport(session: URLSession(configuration: .ephemeral))
            }
        }
    }

    static let bodySecret = "refresh_token=s3cret-rotating-refresh"
    static let secrets = [
        "s3cret-bearer-token", "Y29zbW90ZTpzM2NyZXQtcGFzc3dvcmQ=", "s3cret-signature-1234", "s3cret-web-id-5678", "s3cret-rotating-refresh",
    ]

    static func request(_ url: URL, method: HTTPRequest.Method, credential: Credential) -> HTTPRequestMessage {
        var head = HTTPRequest(method: method, url: url)
        for (name, value) in credential.fields {
            if let field = HTTPField.Name(name) { head.headerFields[field] = value }
        }
        head.headerFields[.accept] = "application/json"
        let body = method == .post ? Data(bodySecret.utf8) : nil
        if body != nil { head.headerFields[.contentType] = "application/x-www-form-urlencoded" }
        return HTTPRequestMessage(head: head, body: body, options: RequestOptions(timeout: .seconds(20)))
    }

    /// Runs `body` with host A (redirecting `/reference/moved` with `status` to B's echo) and host B.
    func withTwoHosts(status: Int, _ body: (_ movedURL: URL, _ target: SandboxHost) async throws -> Void) async throws {
        try await withSandbox { targetHost, targetEndpoints in
            let target = try targetEndpoints.reference("/echo?landed=1")
            try await withSandbox { origin, originEndpoints in
                _ = origin.faults.inject(FaultRule(.status(status, headers: ["Location": target.absoluteString]), path: "/moved"))
                try await body(try originEndpoints.reference("/moved"), targetHost)
            }
        }
    }

    @Test(
        "a GET redirected to another origin arrives without credentials",
        arguments: [301, 302, 303, 307, 308], Credential.allCases
    )
    func crossOriginGet(status: Int, credential: Credential) async throws {
        for session in Session.allCases {
            try await withTwoHosts(status: status) { moved, target in
                let response = try await session.makeTransport().send(Self.request(moved, method: .get, credential: credential))
                #expect(response.head.status.code == 200, "\(session)")
                let entries = target.journal.entries
                #expect(entries.count == 1, "\(session)")
                for entry in entries {
                    #expect(entry.method == "GET")
                    #expect(entry.header("accept") == "application/json", "content negotiation follows the redirect")
                    Self.expectNoSecret(in: entry, "\(session) \(status) \(credential)")
                }
            }
        }
    }

    @Test(
        "a POST redirected to another origin never takes its body or credentials there",
        arguments: [301, 302, 303, 307, 308], Credential.allCases
    )
    func crossOriginPost(status: Int, credential: Credential) async throws {
        for session in Session.allCases {
            try await withTwoHosts(status: status) { moved, target in
                let result = await Result {
                    try await session.makeTransport().send(Self.request(moved, method: .post, credential: credential))
                }
                switch status {
                case 307, 308:
                    // The method and body would be resent as they are: refused, nothing reaches B.
                    #expect(throws: EngageError(.redirectRefused, ""), "\(session)") { try result.get() }
                    #expect(target.journal.entries.isEmpty, "\(session) \(status)")
                default:
                    // URLSession turns the POST into a GET without its body.
                    #expect((try? result.get())?.head.status.code == 200, "\(session) \(status)")
                    for entry in target.journal.entries {
                        #expect(entry.method == "GET")
                        #expect(entry.body.isEmpty)
                        Self.expectNoSecret(in: entry, "\(session) \(status) \(credential)")
                    }
                }
            }
        }
    }

    @Test("a redirect within one origin keeps the credentials and, for 307/308, the body", arguments: [302, 307, 308])
    func sameOriginKeepsCredentials(status: Int) async throws {
        for session in Session.allCases {
            try await withSandbox { host, endpoints in
                let echo = try endpoints.reference("/echo?landed=1")
                _ = host.faults.inject(FaultRule(.status(status, headers: ["Location": echo.absoluteString]), path: "/moved"))
                let method: HTTPRequest.Method = status == 302 ? .get : .post
                let response = try await session.makeTransport().send(
                    Self.request(try endpoints.reference("/moved"), method: method, credential: .bearer))
                #expect(response.head.status.code == 200, "\(session)")
                let landed = host.journal.entries.filter { $0.path == "/echo" }
                #expect(landed.count == 1, "\(session)")
                #expect(landed.first?.header("authorization") == "Bearer s3cret-bearer-token", "\(session)")
                if method == .post { #expect(landed.first?.bodyText == Self.bodySecret, "\(session)") }
            }
        }
    }

    static func expectNoSecret(in entry: JournalEntry, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let seen = entry.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n") + "\n" + (entry.bodyText ?? "")
        for secret in secrets {
            #expect(!seen.contains(secret), "\(context): \(secret) reached the other origin", sourceLocation: sourceLocation)
        }
        #expect(entry.header("authorization") == nil, "\(context)", sourceLocation: sourceLocation)
    }
}

extension Result where Failure == any Error {
    /// The result of running `body`.
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}

/// The decision alone, for what loopback cannot show (TLS): a downgrade is refused, an upgrade or a
/// same-origin move is followed, the method changes as RFC 9110 says, and a request moved to another
/// origin keeps only portable headers.
@Suite("RedirectRule", .bounded)
struct RedirectRuleTests {
    static func request(_ url: String, method: HTTPRequest.Method = .get, body: String? = nil) throws -> HTTPRequestMessage {
        var head = HTTPRequest(method: method, url: try #require(URL(string: url)))
        head.headerFields[.authorization] = "Bearer t"
        head.headerFields[.accept] = "text/plain"
        head.headerFields[.cookie] = "c=1"
        if let name = HTTPField.Name("X-Api-Key") { head.headerFields[name] = "k" }
        return HTTPRequestMessage(head: head, body: body.map { Data($0.utf8) })
    }

    static func redirect(_ status: Int, to location: String) -> HTTPResponse {
        HTTPResponse(status: .init(code: status), headerFields: [.location: location])
    }

    static func next(
        _ request: HTTPRequestMessage, _ status: Int, _ location: String, original: HTTPRequestMessage? = nil
    ) -> Result<HTTPRequestMessage, EngageError> {
        RedirectRule.next(after: request, original: original ?? request, response: redirect(status, to: location))
    }

    @Test("https → http is refused, even on the same host")
    func downgradeRefused() throws {
        let result = Self.next(try Self.request("https://api.example.com/v1/items"), 301, "http://api.example.com/v1/items")
        #expect(throws: EngageError(.redirectRefused, "")) { try result.get() }
    }

    @Test("a downgrade later in the chain is refused")
    func laterDowngradeRefused() throws {
        let original = try Self.request("https://api.example.com/v1/items")
        let current = try Self.request("https://cdn.example.net/items")
        #expect(throws: EngageError(.redirectRefused, "")) {
            try Self.next(current, 302, "http://cdn.example.net/items", original: original).get()
        }
    }

    @Test("same origin (default port spelled out or not, relative Location) keeps headers, method and body")
    func sameOriginFollowed() throws {
        let original = try Self.request("https://api.example.com/v1/items?x=1", method: .post, body: "secret")
        let followed = try Self.next(original, 308, "https://API.example.com:443/v2/items?y=2").get()
        #expect(followed.head.headerFields[.authorization] == "Bearer t")
        #expect(followed.head.method == .post)
        #expect(followed.body == Data("secret".utf8))
        #expect(followed.head.path == "/v2/items?y=2")
        let relative = try Self.next(original, 307, "/v3/items").get()
        #expect(relative.head.authority == "api.example.com")
        #expect(relative.head.path == "/v3/items")
        #expect(relative.body == Data("secret".utf8))
    }

    @Test(
        "303 turns anything but HEAD into a GET without body; 301/302 turn only POST into GET",
        arguments: [
            (303, HTTPRequest.Method.put, HTTPRequest.Method.get), (303, .head, .head), (301, .post, .get), (302, .post, .get),
            (302, .put, .put), (307, .post, .post),
        ])
    func methodRewrites(status: Int, method: HTTPRequest.Method, expected: HTTPRequest.Method) throws {
        let original = try Self.request("https://api.example.com/a", method: method, body: method == .head ? nil : "b")
        let followed = try Self.next(original, status, "/b").get()
        #expect(followed.head.method == expected)
        #expect((followed.body == nil) == (expected == .get || expected == .head))
    }

    @Test("another origin: only portable headers stay; a PUT or a body is refused; a non-http target is refused")
    func crossOrigin() throws {
        let original = try Self.request("https://api.example.com/v1/items")
        let followed = try Self.next(original, 302, "https://cdn.example.net/items").get()
        #expect(followed.head.headerFields == [.accept: "text/plain"])
        #expect(followed.head.authority == "cdn.example.net")
        #expect(throws: EngageError(.redirectRefused, "")) {
            try Self.next(try Self.request("https://api.example.com/a", method: .put, body: "x"), 307, "https://cdn.example.net/a").get()
        }
        #expect(throws: EngageError(.redirectRefused, "")) {
            try Self.next(try Self.request("https://api.example.com/a", method: .post, body: "x"), 308, "https://cdn.example.net/a").get()
        }
        #expect(throws: EngageError(.redirectRefused, "")) { try Self.next(original, 302, "file:///etc/passwd").get() }
        #expect(throws: EngageError(.redirectRefused, "")) {
            try RedirectRule.next(after: original, original: original, response: HTTPResponse(status: .found)).get()
        }
        let ipv6 = try Self.next(original, 302, "https://[::1]:8443/x").get()
        #expect(ipv6.head.authority == "[::1]:8443")
    }

    @Test("http → https on another origin is followed (an upgrade), without credentials")
    func upgradeFollowed() throws {
        let followed = try Self.next(try Self.request("http://127.0.0.1:8080/v1/items"), 301, "https://api.example.com/v1/items").get()
        #expect(followed.head.scheme == "https")
        #expect(followed.head.headerFields[.authorization] == nil)
    }
}

/// Redirect loops end with a clear error after `RedirectRule.maxRedirects` hops.
@Suite("URLSessionTransport: redirect loops", .bounded(deadline: .seconds(60)), .bounded)
struct TransportRedirectLoopTests {
    @Test("a redirect loop fails with .redirectRefused after the bound")
    func loopEnds() async throws {
        try await withSandbox { host, endpoints in
            let moved = try endpoints.reference("/moved")
            _ = host.faults.inject(FaultRule(.status(302, headers: ["Location": moved.absoluteString]), path: "/moved"))
            let request = HTTPRequestMessage(head: HTTPRequest(method: .get, url: moved))
            await #expect(throws: EngageError(.redirectRefused, "")) { try await URLSessionTransport().send(request) }
            #expect(host.journal.entries.count == RedirectRule.maxRedirects + 1)
        }
    }
}

/// A backend whose `/slow/first` waits, then redirects to `/slow/second`, which waits again before it
/// answers: each hop alone fits in the call's time, both together do not.
private struct SlowRedirectEmulator: Emulator {
    let id = "slow"
    /// How long each hop waits before it answers.
    let hop: Duration

    func addRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
        let hop = self.hop
        group.get("first") { _, _ in
            try await Task.sleep(for: hop)
            var response = Response(status: .found)
            response.headers[.location] = "second"
            return response
        }
        group.get("second") { _, _ in
            try await Task.sleep(for: hop)
            return Response(status: .ok)
        }
    }
}

@Suite("URLSessionTransport: a redirect does not extend the call's deadline", .bounded)
struct TransportRedirectDeadlineTests {
    @Test("two hops of 0.7 s with 1 s left: the call ends with .timeout, on the transport's own session and a passed-in one")
    func deadlineCoversEveryHop() async throws {
        for session in TransportRedirectTests.Session.allCases {
            try await withSandbox([SlowRedirectEmulator(hop: .milliseconds(700))]) { _, endpoints in
                var request = HTTPRequestMessage(
                    head: HTTPRequest(method: .get, url: try endpoints.url("slow", "/first")),
                    options: RequestOptions(timeout: .seconds(20)))
                request.options.remaining = .seconds(1)
                let result = await Result { try await session.makeTransport().send(request) }
                #expect(throws: EngageError(.timeout, ""), "\(session)") { try result.get() }
            }
        }
    }
}
