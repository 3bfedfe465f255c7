@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import HTTPTypes
import Logging
import EngageTestTraits
import Testing

/// An authoriser that renews every refused credential it is asked about (unless told not to), recording
/// each rejection it saw, and sends `Bearer token-<renewals>`.
private struct RenewingAuthorizer: RequestAuthorizer {
    let renews: Bool
    let rejections = Locked<[CredentialRejection]>([])

    init(renews: Bool = true) {
        self.renews = renews
    }

    var renewals: Int { rejections.withLock { $0.count } }

    func authorize(_ request: inout HTTPRequestMessage) async throws {
        request.head.headerFields[.authorization] = "Bearer token-\(renewals)"
    }

    func renew(after rejection: CredentialRejection) async throws -> Bool {
        rejections.withLock { $0.append(rejection) }
        return renews
    }
}

/// A body of the shape a Warply-like backend answers with: a status inside a 200.
private struct BodyStatus: Decodable {
    var status: Int
}

/// Reads `{"status": n}` bodies: 9 is a refused signing key, anything else but 1 a refusal.
private let statusPolicy = ResponsePolicy { answer in
    guard let status = try? JSONDecoder().decode(BodyStatus.self, from: answer.response.body).status, status != 1 else { return .accept }
    if status == 9 {
        return .credentialRejected(EngageError(.invalidInput, "registration refused twice", isRetryable: true), credential: .signingKey)
    }
    return .fail(EngageError(.httpStatus, "refused in the body (status \(status))", isRetryable: true))
}

/// A body that counts how often it is decoded (on the counter in the decoder's `userInfo`), and carries a
/// body status a response policy reads.
private struct CountedAnswer: Decodable, Sendable {
    static let counterKey = CodingUserInfoKey(rawValue: "decodes")!
    var status: Int
    var items: [String]

    static func decoder(counting counter: TestCounter) -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.userInfo[counterKey] = counter
        return decoder
    }

    init(from decoder: any Decoder) throws {
        (decoder.userInfo[Self.counterKey] as? TestCounter)?.increment()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        status = try container.decode(Int.self, forKey: .status)
        items = try container.decode([String].self, forKey: .items)
    }

    enum CodingKeys: String, CodingKey { case status, items }
}

/// Reads the status from the call's decoded answer, never from the bytes; records what it saw.
private struct DecodedStatusReader: Sendable {
    let seen = Locked<[Int?]>([])

    var policy: ResponsePolicy {
        ResponsePolicy { [seen] answer in
            let status = (answer.value as? CountedAnswer)?.status
            seen.withLock { $0.append(status) }
            if let status, status == 9 {
                return .credentialRejected(EngageError(.invalidInput, "refused twice"), credential: .signingKey)
            }
            return .accept
        }
    }
}

@Suite("One path: the response policy judges once, one renewal, bounded sends", .bounded)
struct APIClientHooksTests {
    let clock = FakeClock()

    /// A client over `transport` retrying 3 attempts with no delay, authorising with `authorizer` and
    /// judging answers with `policy`.
    func client(
        _ transport: InMemoryTransport, authorizer: any RequestAuthorizer = RenewingAuthorizer(), policy: ResponsePolicy = .standard
    ) -> APIClient {
        APIClient(
            baseURL: URL(string: "https://api.example.com")!, transport: transport, providerID: "test", authorizer: authorizer,
            policy: policy,
            retry: RetryPolicy(maxAttempts: 3, baseDelay: .zero, maxDelay: .zero), clock: clock, random: SeededRandomSource(seed: 1),
            logger: Logger(label: "test"))
    }

    /// Answers `script` in order, then its last answer forever.
    static func scripted(_ script: [HTTPResponse.Status]) -> InMemoryTransport {
        let sends = TestCounter()
        return InMemoryTransport { _ in .status(script[min(sends.increment(), script.count) - 1]) }
    }

    @Test("a call goes out at most maxAttempts + 1 times: retries, then one renewal as its last send")
    func boundedSends() async throws {
        let transport = Self.scripted([.serviceUnavailable, .serviceUnavailable, .unauthorized, .serviceUnavailable])
        let authorizer = RenewingAuthorizer()
        do {
            _ = try await client(transport, authorizer: authorizer).data(.get, "/items")
            Issue.record("a 503 was accepted")
        } catch {
            #expect(error.httpStatus == 503)
        }
        #expect(transport.requests.count == 4)
        #expect(authorizer.renewals == 1)
    }

    @Test("the answer to the resend after a renewal is final: its 503 is not retried")
    func noRetryAfterRenewal() async throws {
        let transport = Self.scripted([.unauthorized, .serviceUnavailable])
        let authorizer = RenewingAuthorizer()
        await #expect(throws: EngageError.self) { _ = try await client(transport, authorizer: authorizer).data(.get, "/items") }
        #expect(transport.requests.count == 2)
        #expect(transport.requests.map { $0.head.headerFields[.authorization] } == ["Bearer token-0", "Bearer token-1"])
    }

    @Test("a 401, renewed, then accepted: the resend's answer is the call's")
    func renewalSucceeds() async throws {
        let transport = Self.scripted([.unauthorized, .ok])
        let authorizer = RenewingAuthorizer()
        _ = try await client(transport, authorizer: authorizer).data(.get, "/items")
        #expect(transport.requests.count == 2)
        let rejection = try #require(authorizer.rejections.withLock { $0.first })
        #expect(rejection.credential == .accessToken)
        #expect(rejection.request.head.headerFields[.authorization] == "Bearer token-0")  // the request as sent
        #expect(rejection.response.status == 401)
    }

    @Test("a second 401 after a renewal is returned as the HTTP error, never a loop")
    func secondUnauthorizedStands() async throws {
        let transport = Self.scripted([.unauthorized])
        let authorizer = RenewingAuthorizer()
        do {
            _ = try await client(transport, authorizer: authorizer).data(.get, "/items")
            Issue.record("a 401 was accepted")
        } catch {
            #expect(error.httpStatus == 401)
        }
        #expect(transport.requests.count == 2)
        #expect(authorizer.renewals == 1)
    }

    @Test("a refusal in a 200's body takes the same path: renewed once, and a second one is the policy's error")
    func bodyRejection() async throws {
        let transport = InMemoryTransport { _ in .json(["status": 9]) }
        let authorizer = RenewingAuthorizer()
        do {
            _ = try await client(transport, authorizer: authorizer, policy: statusPolicy).data(.get, "/items")
            Issue.record("a second status 9 was accepted")
        } catch {
            #expect(error.code == .invalidInput)
            #expect(error.message == "registration refused twice")
            #expect(error.providerID == "test")
        }
        #expect(transport.requests.count == 2)  // the resend's answer is final, even a retryable failure
        #expect(authorizer.rejections.withLock { $0.map(\.credential) } == [.signingKey])
    }

    @Test("a body refusal whose resend succeeds is the call's answer")
    func bodyRejectionThenSuccess() async throws {
        let sends = TestCounter()
        let transport = InMemoryTransport { _ in .json(["status": sends.increment() == 1 ? 9 : 1]) }
        let body = try await client(transport, policy: statusPolicy).data(.get, "/items")
        #expect(try JSONDecoder().decode(BodyStatus.self, from: body).status == 1)
        #expect(transport.requests.count == 2)
    }

    @Test("a credential that cannot be renewed leaves the refusal as the outcome, after one send")
    func notRenewed() async throws {
        let declining = RenewingAuthorizer(renews: false)
        let unauthorized = Self.scripted([.unauthorized])
        await #expect(throws: EngageError.self) { _ = try await client(unauthorized, authorizer: declining).data(.get, "/items") }
        #expect(unauthorized.requests.count == 1)
        let refused = InMemoryTransport { _ in .json(["status": 9]) }
        do {
            _ = try await client(refused, authorizer: declining, policy: statusPolicy).data(.get, "/items")
            Issue.record("a status 9 was accepted")
        } catch {
            #expect(error.message == "registration refused twice")
        }
        #expect(refused.requests.count == 1)
    }

    @Test("a request sent without authorisation is never renewed")
    func unauthorisedRequestsAreNotRenewed() async throws {
        let transport = Self.scripted([.unauthorized])
        let authorizer = RenewingAuthorizer()
        await #expect(throws: EngageError.self) {
            _ = try await client(transport, authorizer: authorizer).data(.get, "/items", options: RequestOptions(authorization: .none))
        }
        #expect(transport.requests.count == 1)
        #expect(authorizer.renewals == 0)
    }

    @Test("a failure verdict fails a 200 at once, unretried, attributed to the client's provider")
    func failVerdict() async throws {
        let transport = InMemoryTransport { _ in .json(["status": 0]) }
        do {
            _ = try await client(transport, policy: statusPolicy).data(.post, "/redeem")
            Issue.record("a refusal was accepted")
        } catch {
            #expect(error.message == "refused in the body (status 0)")
            #expect(error.providerID == "test")
        }
        #expect(transport.requests.count == 1)
    }

    @Test("a composite authoriser renews a refused signing key with the signer, and a 401 with the bearer")
    func compositeRenewsTheRefusedCredential() async throws {
        struct KeySigner: RequestSigner {
            let renewals = TestCounter()
            func signatureHeaders(for request: HTTPRequestMessage, at date: Date) async throws -> HTTPFields { [:] }
            func renewKey(after rejection: CredentialRejection) async throws -> Bool {
                renewals.increment()
                return true
            }
        }
        let signer = KeySigner()
        let bearer = RenewingAuthorizer()
        let composite = CompositeAuthorizer([SignedHeadersAuthorizer(signer: signer, clock: clock), bearer])
        let sends = TestCounter()
        let keyRefused = InMemoryTransport { _ in .json(["status": sends.increment() == 1 ? 9 : 1]) }
        _ = try await client(keyRefused, authorizer: composite, policy: statusPolicy).data(.get, "/items")
        #expect(signer.renewals.count == 1)
        #expect(bearer.renewals == 0)
        let tokenRefused = Self.scripted([.unauthorized, .ok])
        _ = try await client(tokenRefused, authorizer: composite, policy: statusPolicy).data(.get, "/items")
        #expect(signer.renewals.count == 1)
        #expect(bearer.renewals == 1)
    }

    @Test("a rule turns a non-2xx body into the provider's error, with the provider's redactor")
    func providerError() async throws {
        let transport = InMemoryTransport { _ in
            .json(["code": "card_declined", "message": "declined for ana@example.com"], status: .badRequest)
        }
        let policy = ResponsePolicy { answer in
            guard answer.response.status == 400 else { return .accept }
            let text = String(decoding: answer.response.body, as: UTF8.self)
            return .fail(EngageError(.invalidInput, "\(answer.request.head.path ?? ""): \(answer.redactor.redact(text: text))"))
        }
        do {
            _ = try await client(transport, policy: policy).data(.post, "/orders")
            Issue.record("a 400 was accepted")
        } catch {
            #expect(error.code == .invalidInput)
            #expect(error.message.hasPrefix("/orders: "))
            #expect(!error.message.contains("ana@example.com"))
            #expect(error.providerID == "test")
        }
    }

    @Test("without a rule, or when the rules accept, a non-2xx is EngageError.http with the redacted server message")
    func standardFailure() async throws {
        let transport = InMemoryTransport { _ in .json(["message": "no user ana@example.com"], status: .notFound) }
        for policy in [ResponsePolicy.standard, ResponsePolicy { _ in .accept }] {
            do {
                _ = try await client(transport, policy: policy).data(.get, "/users/1")
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

    @Test(
        "an encodedQuery that is not percent-encoded is refused before anything is sent",
        arguments: [
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

    @Test("json decodes each answer once: the policy reads the value the call returns, and a resend's answer is decoded anew")
    func answersParsedOnce() async throws {
        let sends = TestCounter()
        let transport = InMemoryTransport { _ in
            .json(["status": sends.increment() == 1 ? 9 : 1, "items": ["a", "b"]])
        }
        let reader = DecodedStatusReader()
        let decodes = TestCounter()
        let answer = try await client(transport, policy: reader.policy).json(
            CountedAnswer.self, .get, "/items", decoder: CountedAnswer.decoder(counting: decodes))
        #expect(answer.items == ["a", "b"])
        #expect(reader.seen.withLock { $0 } == [9, 1])
        // Two answers (the refusal and the resend's), each decoded once; none decoded again by the call.
        #expect(decodes.count == 2)
    }

    @Test("an answer that does not decode is the call's .decoding error, with its coding path, and the policy sees no value")
    func undecodableAnswer() async throws {
        let transport = InMemoryTransport { _ in .json(["status": 1, "items": "not a list"]) }
        let reader = DecodedStatusReader()
        do {
            _ = try await client(transport, policy: reader.policy).json(CountedAnswer.self, .get, "/items")
            Issue.record("a malformed answer decoded")
        } catch {
            #expect(error.code == .decoding)
            #expect(error.message.contains("items"))
        }
        #expect(reader.seen.withLock { $0 } == [nil])
    }

    @Test("a non-2xx answer is not decoded as the success type: the policy sees bytes, the call the HTTP error")
    func errorAnswerNotDecoded() async throws {
        let transport = InMemoryTransport { _ in .json(["status": 1, "items": []], status: .badRequest) }
        let reader = DecodedStatusReader()
        do {
            _ = try await client(transport, policy: reader.policy).json(CountedAnswer.self, .get, "/items")
            Issue.record("a 400 was accepted")
        } catch {
            #expect(error.code == .httpStatus)
        }
        #expect(reader.seen.withLock { $0 } == [nil])
    }

    @Test("a request value carries how its answer reads: send returns the typed value, the bytes, or the whole answer")
    func requestValues() async throws {
        let transport = InMemoryTransport { _ in .json(["status": 1, "items": ["a"]]) }
        let client = client(transport)
        let decodes = TestCounter()
        let typed = try await client.send(
            APIRequest(.get, "/items", reading: .json(CountedAnswer.self, decoder: CountedAnswer.decoder(counting: decodes))))
        #expect(typed.items == ["a"])
        #expect(decodes.count == 1)
        let bytes = try await client.send(APIRequest(.get, "/items", reading: .bytes))
        #expect(try JSONDecoder().decode(BodyStatus.self, from: bytes).status == 1)
        let whole = try await client.send(APIRequest(.get, "/items", query: [("page", "2")], reading: .response))
        #expect(whole.status == 200)
        #expect(transport.requests.last?.head.path == "/items?page=2")
    }

    @Test("a failure the policy calls retryable is retried where safe; one it calls final is not, whatever the status")
    func retryFromVerdict() async throws {
        let transport = InMemoryTransport { _ in .json(["message": "out of stock"], status: .internalServerError) }
        let final = ResponsePolicy { answer in
            guard answer.response.status == 500 else { return .accept }
            return .fail(EngageError(.invalidInput, "out of stock", httpStatus: 500, isRetryable: false))
        }
        await #expect(throws: EngageError.self) { _ = try await client(transport, policy: final).data(.get, "/stock") }
        #expect(transport.requests.count == 1)
        await #expect(throws: EngageError.self) { _ = try await client(transport).data(.get, "/stock") }
        #expect(transport.requests.count == 4)  // the standard 500 is retryable: 3 attempts
    }
}
