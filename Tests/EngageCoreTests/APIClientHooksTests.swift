import EngageCore
import EngageTesting
import Foundation
import HTTPTypes
import Logging
import Testing

/// An authoriser whose credentials can always be renewed after a 401 (so the 401 renewal never runs
/// out on its own), counting its renewals.
private struct AlwaysRenewingAuthorizer: RequestAuthorizer {
    let renewals = TestCounter()

    func authorize(_ request: inout HTTPRequestMessage) async throws {
        request.head.headerFields[.authorization] = "Bearer token-\(renewals.count)"
    }

    func renewAfterUnauthorized(_ request: HTTPRequestMessage) async throws -> Bool {
        renewals.increment()
        return true
    }
}

/// A body of the shape a Warply-like backend answers with: a status inside a 200.
private struct BodyStatus: Decodable {
    var status: Int
}

@Suite("APIClient hooks and the send budget of one call")
struct APIClientHooksTests {
    let clock = FakeClock()

    /// The full stack's repeating layers (retry with no delay, then authorisation) over `transport`, in a
    /// client with `hooks` and `maxSendsPerCall`.
    func client(_ transport: InMemoryTransport, hooks: APIClient.Hooks = APIClient.Hooks(), maxSendsPerCall: Int = 4) -> APIClient {
        let stack = MiddlewareTransport(
            transport: transport,
            middlewares: [
                RetryMiddleware(
                    policy: RetryPolicy(maxAttempts: 3, baseDelay: .zero, maxDelay: .zero), clock: clock, random: SeededRandomSource(seed: 1),
                    logger: Logger(label: "test")
                ),
                AuthorizationMiddleware(authorizer: AlwaysRenewingAuthorizer()),
            ]
        )
        return APIClient(
            baseURL: URL(string: "https://api.example.com")!, transport: stack, providerID: "test", maxSendsPerCall: maxSendsPerCall, hooks: hooks
        )
    }

    /// Answers 401 and 503 in turn: every layer wants to send again (renewal after the 401, retry after
    /// the 503, and the provider's re-send through `interpret` after the final 503).
    static func hostileServer() -> InMemoryTransport {
        let sends = TestCounter()
        return InMemoryTransport { _ in sends.increment().isMultiple(of: 2) ? .status(.serviceUnavailable) : .status(.unauthorized) }
    }

    static let alwaysResend = APIClient.Hooks(interpret: { _, _, _ in .resend(otherwise: EngageError(.httpStatus, "still failing")) })

    @Test("retries, 401 renewals and a provider re-send together stay within maxSendsPerCall (4 by default)")
    func boundedSends() async throws {
        let transport = Self.hostileServer()
        let client = client(transport, hooks: Self.alwaysResend)
        await #expect(throws: EngageError.self) { _ = try await client.data(.get, "/items") }
        #expect(transport.requests.count == NetworkSettings.defaultMaxSendsPerCall)
        #expect(NetworkSettings.defaultMaxSendsPerCall == 4)
    }

    @Test("without the bound the same layers nest to 12 sends (re-send ×2, retry ×3, 401 ×2)")
    func unboundedLayersNest() async throws {
        // The budget set to the product of the layers shows what the bound prevents.
        let transport = Self.hostileServer()
        let client = client(transport, hooks: Self.alwaysResend, maxSendsPerCall: 100)
        await #expect(throws: EngageError.self) { _ = try await client.data(.get, "/items") }
        #expect(transport.requests.count == 12)
    }

    @Test("the bound applies to each call on its own", arguments: [1, 2, 3, 4, 7])
    func boundPerCall(limit: Int) async throws {
        let transport = Self.hostileServer()
        let client = client(transport, hooks: Self.alwaysResend, maxSendsPerCall: limit)
        for call in 1...2 {
            await #expect(throws: EngageError.self) { _ = try await client.data(.get, "/items") }
            #expect(transport.requests.count == call * limit)
        }
    }

    @Test("the last answer is the outcome when the budget is spent: a 503 stays a retryable HTTP error")
    func lastAnswerIsOutcome() async throws {
        let transport = InMemoryTransport { _ in .status(.serviceUnavailable) }
        let client = client(transport, maxSendsPerCall: 2)
        do {
            _ = try await client.data(.get, "/items")
            Issue.record("a 503 was accepted")
        } catch {
            #expect(error.httpStatus == 503)
            #expect(error.isRetryable)
        }
        #expect(transport.requests.count == 2)
    }

    @Test("interpret may ask for one re-send; a second request for one fails with its `otherwise` error")
    func resendOnce() async throws {
        let transport = InMemoryTransport { _ in .json(["status": 9]) }
        let passes = TestCounter()
        let hooks = APIClient.Hooks(
            prepare: { request in
                passes.increment()
                request.options.signingCredential = SigningCredential(keyID: "web-\(passes.count)", secret: "s")
            },
            interpret: { response, request, _ in
                let status = try JSONDecoder().decode(BodyStatus.self, from: response.body).status
                return status == 9 ? .resend(otherwise: EngageError(.invalidInput, "registration invalid twice (\(request.options.isResend))")) : .accept
            }
        )
        let client = client(transport, hooks: hooks)
        do {
            _ = try await client.data(.get, "/items")
            Issue.record("a second status 9 was accepted")
        } catch {
            #expect(error.code == .invalidInput)
            #expect(error.message.contains("(true)"))  // the second pass was marked as a re-send
        }
        #expect(transport.requests.count == 2)
        #expect(passes.count == 2)
        // Each pass carried the credential `prepare` gave it.
        #expect(transport.requests.map { $0.options.signingCredential?.keyID } == ["web-1", "web-2"])
    }

    @Test("a re-send that succeeds is the call's answer")
    func resendSucceeds() async throws {
        let sends = TestCounter()
        let transport = InMemoryTransport { _ in .json(["status": sends.increment() == 1 ? 9 : 1]) }
        let hooks = APIClient.Hooks(interpret: { response, _, _ in
            try JSONDecoder().decode(BodyStatus.self, from: response.body).status == 9 ? .resend(otherwise: EngageError(.httpStatus, "x")) : .accept
        })
        let body = try await client(transport, hooks: hooks).data(.get, "/items")
        #expect(try JSONDecoder().decode(BodyStatus.self, from: body).status == 1)
        #expect(transport.requests.count == 2)
    }

    @Test("interpret may fail a 200, and the error is attributed to the client's provider")
    func interpretFails() async throws {
        let transport = InMemoryTransport { _ in .json(["status": 0]) }
        let hooks = APIClient.Hooks(interpret: { _, _, _ in .fail(EngageError(.httpStatus, "refused in the body")) })
        do {
            _ = try await client(transport, hooks: hooks).data(.post, "/redeem")
            Issue.record("a refusal was accepted")
        } catch {
            #expect(error.message == "refused in the body")
            #expect(error.providerID == "test")
        }
        #expect(transport.requests.count == 1)
    }

    @Test("an error thrown by a hook is the call's error, wrapped as an EngageError")
    func hookThrows() async throws {
        struct Broken: Error {}
        let transport = InMemoryTransport { _ in .json([:]) }
        let prepareThrows = APIClient.Hooks(prepare: { _ in throw Broken() })
        await #expect(throws: EngageError.self) { _ = try await client(transport, hooks: prepareThrows).data(.get, "/items") }
        #expect(transport.requests.isEmpty)  // nothing is sent when preparing fails
        let interpretThrows = APIClient.Hooks(interpret: { _, _, _ in throw Broken() })
        await #expect(throws: EngageError.self) { _ = try await client(transport, hooks: interpretThrows).data(.get, "/items") }
    }

    @Test("mapError turns a non-2xx body into the provider's error, with the provider's redactor")
    func mapError() async throws {
        let transport = InMemoryTransport { _ in .json(["code": "card_declined", "message": "declined for ana@example.com"], status: .badRequest) }
        let hooks = APIClient.Hooks(mapError: { response, request, redactor in
            guard response.status == 400 else { return nil }
            let text = String(decoding: response.body, as: UTF8.self)
            return EngageError(.invalidInput, "\(request.head.path ?? ""): \(redactor.redact(text: text))")
        })
        do {
            _ = try await client(transport, hooks: hooks).data(.post, "/orders")
            Issue.record("a 400 was accepted")
        } catch {
            #expect(error.code == .invalidInput)
            #expect(error.message.hasPrefix("/orders: "))
            #expect(!error.message.contains("ana@example.com"))
            #expect(error.providerID == "test")
        }
    }

    @Test("without mapError, or when it returns nil, a non-2xx is EngageError.http with the redacted server message")
    func mapErrorFallsBack() async throws {
        let transport = InMemoryTransport { _ in .json(["message": "no user ana@example.com"], status: .notFound) }
        for hooks in [APIClient.Hooks(), APIClient.Hooks(mapError: { _, _, _ in nil })] {
            do {
                _ = try await client(transport, hooks: hooks).data(.get, "/users/1")
                Issue.record("a 404 was accepted")
            } catch {
                #expect(error.httpStatus == 404)
                #expect(error.message.contains("no user"))
                #expect(!error.message.contains("ana@example.com"))
            }
        }
    }

    @Test("server messages are redacted with the client's redactor, its extra secret keys included")
    func clientRedactor() throws {
        let client = APIClient(
            baseURL: URL(string: "https://api.example.com")!, transport: InMemoryTransport { _ in .json([:]) },
            redactor: Redactor(sensitiveKeys: Redactor.defaultSensitiveKeys.union(["voucher_pin"]))
        )
        let response = HTTPResponseMessage(
            head: HTTPResponse(status: .badRequest), body: Data(#"{"message":"bad voucher_pin=1234-5678 for this order"}"#.utf8)
        )
        let message = try #require(client.serverMessage(in: response))
        #expect(!message.contains("1234-5678"))
        #expect(message.contains("HTTP 400"))
    }

    @Test("encodedQuery is appended verbatim after the encoded query items")
    func encodedQueryVerbatim() throws {
        let client = client(InMemoryTransport { _ in .json([:]) })
        let request = try client.makeRequest(.get, "/socket.gif", query: [("a", "1 2")], encodedQuery: "c=%2Fx&d=~y&sig=AbC%3D")
        #expect(request.head.path == "/socket.gif?a=1%202&c=%2Fx&d=~y&sig=AbC%3D")
        let alone = try client.makeRequest(.get, "/socket.gif", encodedQuery: "x=1")
        #expect(alone.head.path == "/socket.gif?x=1")
    }

    @Test("an encodedQuery that is not percent-encoded is refused before anything is sent", arguments: [
        "a=1 2", "a=%zz", "a=%2", "a=1#frag", "a=\"x\"", "a=κ", "a=1\r\nHost: evil",
    ])
    func encodedQueryRefused(query: String) async throws {
        let transport = InMemoryTransport { _ in .json([:]) }
        do {
            _ = try await client(transport).data(.get, "/socket.gif", encodedQuery: query)
            Issue.record("accepted \(query)")
        } catch {
            #expect(error.code == .invalidInput)
        }
        #expect(transport.requests.isEmpty)
    }
}

@Suite("NetworkSettings.maxSendsPerCall")
struct MaxSendsPerCallSettingTests {
    @Test("the default is 4 and decodes when missing")
    func defaultValue() throws {
        #expect(NetworkSettings().maxSendsPerCall == 4)
        let decoded = try JSONDecoder().decode(NetworkSettings.self, from: Data("{}".utf8))
        #expect(decoded.maxSendsPerCall == 4)
    }

    @Test("values outside 1...10 are named in the validation issues", arguments: [0, -1, 11, 1_000])
    func outOfRange(value: Int) {
        var settings = NetworkSettings()
        settings.maxSendsPerCall = value
        let issues = settings.validationIssues()
        #expect(issues.count == 1)
        #expect(issues.first?.contains("network.maxSendsPerCall") == true)
    }

    @Test("values within 1...10 are valid", arguments: [1, 4, 10])
    func inRange(value: Int) {
        var settings = NetworkSettings()
        settings.maxSendsPerCall = value
        #expect(settings.validationIssues().isEmpty)
    }
}
