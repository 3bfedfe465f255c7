@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import HTTPTypes
import Logging
import EngageTestTraits
import Testing

@Suite("Redaction", .bounded)
struct RedactionTests {
    let token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEiLCJleHAiOjE3MDAwMDAwMDB9.c2lnbmF0dXJlLXNlY3JldA"
    let password = "Tr0ub4dor&3-horse"
    let cardNumber = "4111 1111 1111 1111"
    let email = "maria.papadopoulou@example.gr"

    @Test("no token, password, card number or e-mail reaches the logs of a full request")
    func logsContainNoSecrets() async throws {
        let capture = LogCapture()
        let logger = capture.logger(level: .trace)
        let transport = InMemoryTransport { _ in
            .json(["access_token": token, "refresh_token": "rt-123456789", "user": ["email": email], "ok": true])
        }
        let client = APIClient(
            baseURL: URL(string: "https://api.example.com/v2")!,
            transport: APIClient.standardTransport(around: transport, clock: FakeClock(), logger: logger)
        )
        struct Login: Encodable, Sendable {
            var email: String
            var password: String
            var cardNumber: String
            var note: String
        }
        _ = try await client.data(
            .post, "/login", query: [("token", token), ("lang", "el")],
            headers: [.authorization: "Bearer \(token)", .cookie: "session=abc123secret"],
            body: .json(Login(email: email, password: password, cardNumber: cardNumber, note: "card \(cardNumber) for \(email)"))
        )
        #expect(!capture.entries.isEmpty)
        for secret in [token, password, cardNumber, "4111111111111111", email, "rt-123456789", "abc123secret"] {
            #expect(!capture.contains(secret), "leaked: \(secret.prefix(12))…")
        }
        #expect(capture.contains("lang=el"))
        #expect(capture.contains(Redactor.mask))
    }

    @Test("free text is scrubbed by shape")
    func textShapes() {
        let redactor = Redactor()
        let text = redactor.redact(text: "user \(email) paid with \(cardNumber) using Bearer abcdefghijkl and \(token)")
        #expect(!text.contains(email))
        #expect(!text.contains("1111 1111"))
        #expect(!text.contains("abcdefghijkl"))
        #expect(!text.contains("eyJ"))
        #expect(text.contains("user"))
    }

    @Test("phone numbers are hidden in free text, with or without a country code; short numbers stay")
    func phoneNumbers() {
        let redactor = Redactor()
        for text in ["Invalid msisdn 306912345678", "call +30 694 123 4567 now", "mobile 6941234567 is taken", "+1-202-555-0143"] {
            let redacted = redactor.redact(text: text)
            #expect(!redacted.contains("12345678") && !redacted.contains("4567") && !redacted.contains("555-0143"), "\(redacted)")
        }
        #expect(redactor.redact(text: "coupon 12345 expired at 2026") == "coupon 12345 expired at 2026")
        #expect(redactor.redact(body: Data(#"{"msisdn":"3069","phone":"12","mobile":"1"}"#.utf8)).contains("3069") == false)
    }

    /// Warply's sign-up sends `firstname` and `lastname`, PiggyCards' `first_name` and `last_name`; the
    /// redactor hid e-mails and phone numbers but logged names at debug level.
    @Test("names and dates of birth are hidden by default, in any spelling of their keys")
    func personalNames() {
        let body =
            #"{"firstname":"Maria","lastname":"Papadopoulou","first_name":"Eleni","last_name":"Kosta","#
            + #""surname":"Rossi","date_of_birth":"1990-01-01","campaign":"Spring"}"#
        let redacted = Redactor().redact(body: Data(body.utf8))
        for secret in ["Maria", "Papadopoulou", "Eleni", "Kosta", "Rossi", "1990-01-01"] {
            #expect(!redacted.contains(secret), "\(secret) in \(redacted)")
        }
        #expect(redacted.contains("Spring"), "other values stay readable")
    }

    @Test("form bodies and queries hide sensitive keys; provider keys can be added")
    func formAndCustomKeys() {
        let redactor = Redactor().adding(headers: ["loyalty-signature"], keys: ["web_id"])
        #expect(redactor.redactPath("/api?password=hunter2&page=3") == "/api?password=\(Redactor.mask)&page=3")
        let form = redactor.redact(body: Data("web_id=W-123&x=1".utf8), contentType: "application/x-www-form-urlencoded")
        #expect(form == "web_id=\(Redactor.mask)&x=1")
        let headers = redactor.redact(headers: [HTTPField.Name("loyalty-signature")!: "deadbeef", .accept: "application/json"])
        #expect(!headers.contains("deadbeef"))
        #expect(headers.contains("application/json"))
    }

    @Test("binary and oversized bodies are summarised, not dumped")
    func binaryBodies() {
        let redactor = Redactor(maxBodyExcerpt: 16)
        #expect(redactor.redact(body: Data([0xFF, 0xFE, 0x00, 0x01])) == "<4 bytes>")
        #expect(redactor.redact(body: Data(String(repeating: "a", count: 100).utf8)).hasSuffix("…(100 bytes)"))
    }

    @Test("card-shaped JSON numbers are hidden wherever they are; sensitive keys hide any number")
    func jsonNumbers() {
        let redactor = Redactor()
        let body =
            #"{"amount": 1250, "id": 4111111111111111, "nested": [{"n": 1234567890123456789}], "pin": 1234, "ratio": 1.5, "ok": true}"#
        let text = redactor.redact(body: Data(body.utf8), contentType: "application/json")
        #expect(!text.contains("4111111111111111"))
        #expect(!text.contains("1234567890123456789"))
        #expect(!text.contains("1234,") && !text.contains(":1234}"))
        #expect(text.contains("1250"))
        #expect(text.contains("1.5"))
        #expect(text.contains("true"))
    }

    @Test(
        "headers whose names look secret are hidden",
        arguments: [
            "X-Auth-Token", "x-session-id", "X-Client-Secret", "loyalty-signature", "X-Api-Key", "x-apikey", "x-password",
            "OAuth-Credential", "Authorization", "Cookie",
        ])
    func headerNames(name: String) throws {
        let field = try #require(HTTPField.Name(name))
        let text = Redactor().redact(headers: [field: "s3cr3t-value", .accept: "application/json"])
        #expect(!text.contains("s3cr3t-value"))
        #expect(text.contains("application/json"))
    }

    @Test(
        "bodies that are not parseable JSON still hide sensitive pairs",
        arguments: [
            // Malformed
            #"{"password": "hunter2-x", "user": "maria", oops}"#,
            // Truncated inside the value
            #"{"user": "maria", "refresh_token": "hunter2-x"#,
            // Form-like text
            "user=maria&password=hunter2-x&lang=el",
            // Unquoted number under a sensitive key, and an escaped quote inside a value
            #"{"pin": 998877, "secret": "hunter2-x " tail", "#,
        ])
    func unparseableBodies(body: String) {
        let text = Redactor().redact(body: Data(body.utf8), contentType: "application/json")
        #expect(!text.contains("hunter2-x"))
        #expect(!text.contains("998877"))
        #expect(text.contains("maria") || body.hasPrefix(#"{"pin""#))
    }

    @Test("a body too large to parse is scrubbed by pattern")
    func oversizedBody() {
        let padding = String(repeating: "x", count: 1_100_000)
        let body = #"{"access_token": "hunter2-x", "padding": ""# + padding + #""}"#
        let text = Redactor().redact(body: Data(body.utf8), contentType: "application/json")
        #expect(!text.contains("hunter2-x"))
        #expect(text.hasSuffix("bytes)"))
    }

    @Test("malformed bodies are redacted in the logs too")
    func malformedBodyInLogs() async throws {
        let capture = LogCapture()
        let transport = InMemoryTransport { _ in
            .body(Data(#"{"refresh_token": "rt-9f8e7d6c5b", "broken"#.utf8), contentType: "application/json")
        }
        let client = APIClient(
            baseURL: URL(string: "https://api.example.com")!,
            transport: APIClient.standardTransport(around: transport, clock: FakeClock(), logger: capture.logger(level: .trace))
        )
        _ = try? await client.data(
            .post, "/auth", headers: [HTTPField.Name("X-Session-Id")!: "sess-4242-secret"],
            body: .data(Data("username=maria&password=pw-5512&x=1".utf8), contentType: "text/plain")
        )
        #expect(!capture.entries.isEmpty)
        for secret in ["rt-9f8e7d6c5b", "sess-4242-secret", "pw-5512"] {
            #expect(!capture.contains(secret), "leaked: \(secret)")
        }
    }

    @Test("an error's debug description redacts its underlying error")
    func debugDescription() {
        struct Underlying: Error, CustomStringConvertible {
            var description: String
        }
        let error = EngageError(
            .network, "The request failed.",
            underlyingError: Underlying(description: "GET https://api.example.com/me?access_token=\(token) for \(email) password=hunter2-x")
        )
        let text = error.debugDescription
        #expect(text.contains("The request failed."))
        #expect(!text.contains(token))
        #expect(!text.contains(email))
        #expect(!text.contains("hunter2-x"))
    }

    @Test("TokenPair and UserIdentity never print secrets")
    func descriptions() {
        let pair = TokenPair(accessToken: token, refreshToken: "rt-secret")
        #expect(!String(describing: pair).contains(token))
        #expect(!String(describing: pair).contains("rt-secret"))
        let identity = UserIdentity(userID: "u1", email: email)
        #expect(!String(describing: identity).contains(email))
    }
}

@Suite("URLSessionTransport", .bounded)
struct URLSessionTransportTests {
    @Test("an unusable URL is reported without its query")
    func invalidURLMessage() async throws {
        let head = HTTPRequest(method: .get, scheme: "https", authority: "api example.com", path: "/a?access_token=tok-31337-secret")
        let error = await #expect(throws: EngageError.self) {
            try await URLSessionTransport().send(HTTPRequestMessage(head: head))
        }
        #expect(error?.code == .invalidInput)
        #expect(error?.message.contains("tok-31337-secret") == false)
        #expect(error?.message.contains("access_token") == false)
    }

    @Test("secret-bearing core values show no secret when printed, debug-printed, dumped or reflected")
    func secretBearingValuesStayHidden() {
        let pair = TokenPair(accessToken: "at-xyzzy", refreshToken: "rt-xyzzy", expiresAt: Date(timeIntervalSince1970: 0))
        for value in [pair, [pair], Optional(pair) as Any] as [Any] {
            for text in reflectedForms(value) {
                #expect(!text.contains("xyzzy"), "a secret shows in: \(text)")
            }
        }
        #expect(reflectedForms(pair).allSatisfy { $0.contains("TokenPair") })
    }
}

/// Every way a value reaches a log, a console or a reflection-based tool: `description`,
/// `debugDescription`, inside a collection, `dump`, and the labels and values of its `Mirror`, recursively.
func reflectedForms(_ value: Any) -> [String] {
    var dumped = ""
    dump(value, to: &dumped)
    var mirrored: [String] = []
    func walk(_ value: Any, depth: Int) {
        guard depth < 6 else { return }
        for child in Mirror(reflecting: value).children {
            mirrored.append("\(child.label ?? "_"): \(String(describing: child.value))")
            walk(child.value, depth: depth + 1)
        }
    }
    walk(value, depth: 0)
    return [String(describing: value), String(reflecting: value), "\([value])", dumped] + mirrored
}
