import EngageCore
import EngageTesting
import Foundation
import HTTPTypes
import Logging
import Testing

@Suite("Redaction")
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
            transport: TransportStack.make(transport: transport, retry: .none, clock: FakeClock(), logger: logger)
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

    @Test("TokenPair and UserIdentity never print secrets")
    func descriptions() {
        let pair = TokenPair(accessToken: token, refreshToken: "rt-secret")
        #expect(!String(describing: pair).contains(token))
        #expect(!String(describing: pair).contains("rt-secret"))
        let identity = UserIdentity(userID: "u1", email: email)
        #expect(!String(describing: identity).contains(email))
    }
}
