@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import HTTPTypes
import Logging
import EngageTestTraits
import Testing

@Suite("Retries, authorisation and timeouts of a call", .bounded)
struct TransportMiddlewareTests {
    let clock = FakeClock()
    let logger = Logger(label: "test")
    static let baseURL = URL(string: "https://api.example.com")!

    /// A client over `transport` retrying per `policy` on the fake clock.
    func retryClient(
        _ transport: InMemoryTransport, policy: RetryPolicy = RetryPolicy(maxAttempts: 3),
        authorizer: any RequestAuthorizer = NoAuthorizer()
    ) -> APIClient {
        APIClient(
            baseURL: Self.baseURL, transport: transport, authorizer: authorizer, retry: policy, clock: clock,
            random: SeededRandomSource(seed: 7), logger: logger)
    }

    @Test("a 503 is retried with exponential back-off until it succeeds")
    func retriesWithBackoff() async throws {
        let calls = TestCounter()
        let transport = InMemoryTransport { _ in
            calls.increment() < 3 ? .status(.serviceUnavailable) : .json(["ok": true])
        }
        let client = retryClient(transport, policy: RetryPolicy(maxAttempts: 3, baseDelay: .seconds(1), maxDelay: .seconds(30)))
        let task = Task { try await client.data(.get, "/items") }
        await clock.waitForSleepers(1)
        #expect(calls.count == 1)
        clock.advance(by: .seconds(1))  // the first delay is in [0.5, 1] s
        await clock.waitForSleepers(1)
        #expect(calls.count == 2)
        clock.advance(by: .seconds(2))  // the second in [1, 2] s
        _ = try await task.value
        #expect(calls.count == 3)
    }

    @Test("back-off delays grow, are capped and jittered within [50 %, 100 %]")
    func backoffShape() {
        let policy = RetryPolicy(maxAttempts: 10, baseDelay: .seconds(1), multiplier: 2, maxDelay: .seconds(5))
        #expect(policy.delay(afterAttempt: 1, randomFraction: 1) == .seconds(1))
        #expect(policy.delay(afterAttempt: 1, randomFraction: 0) == .milliseconds(500))
        #expect(policy.delay(afterAttempt: 3, randomFraction: 1) == .seconds(4))
        #expect(policy.delay(afterAttempt: 8, randomFraction: 1) == .seconds(5))
        #expect(policy.delay(afterAttempt: 8, randomFraction: 0) == .milliseconds(2500))
    }

    @Test("Retry-After in seconds overrides the computed delay")
    func retryAfterSeconds() async throws {
        let calls = TestCounter()
        let transport = InMemoryTransport { _ in
            calls.increment() == 1 ? .status(.tooManyRequests, headers: [.retryAfter: "7"]) : .json([:])
        }
        let client = retryClient(transport)
        let task = Task { try await client.data(.get, "/items") }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(6))
        for _ in 0..<20 { await Task.yield() }
        #expect(calls.count == 1)
        clock.advance(by: .seconds(1))
        _ = try await task.value
        #expect(calls.count == 2)
    }

    @Test("Retry-After as an HTTP date is honoured, and one beyond the limit is not waited for")
    func retryAfterDate() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(RetryPolicy.retryAfterDelay("Tue, 14 Nov 2023 22:13:50 GMT", now: now) == .seconds(30))
        #expect(RetryPolicy.retryAfterDelay("soon", now: now) == nil)
        #expect(RetryPolicy.retryAfterDelay("-3", now: now) == nil)
    }

    @Test("a Retry-After longer than the policy allows fails at once")
    func retryAfterTooLong() async throws {
        let transport = InMemoryTransport { _ in .status(.serviceUnavailable, headers: [.retryAfter: "3600"]) }
        let error = await #expect(throws: EngageError.self) { try await retryClient(transport).data(.get, "/items") }
        #expect(error?.httpStatus == 503)
        #expect(error?.retryAfter == .seconds(3600))
        #expect(transport.requests.count == 1)
    }

    @Test("a POST is not repeated after a 500, but is after a 503 (not processed)")
    func nonIdempotentPost() async throws {
        let transport500 = InMemoryTransport { _ in .status(.internalServerError) }
        let error = await #expect(throws: EngageError.self) { try await retryClient(transport500).data(.post, "/redeem") }
        #expect(error?.httpStatus == 500)
        #expect(transport500.requests.count == 1)

        let calls = TestCounter()
        let transport503 = InMemoryTransport { _ in calls.increment() == 1 ? .status(.serviceUnavailable) : .json([:]) }
        let task = Task { [client = retryClient(transport503)] in try await client.data(.post, "/redeem") }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(10))
        _ = try await task.value
        #expect(calls.count == 2)
    }

    @Test("a POST marked repeatable is retried after a network failure; an unmarked one is not")
    func repeatablePost() async throws {
        let calls = TestCounter()
        let transport = InMemoryTransport { _ in
            // The first attempt of each phase fails as if the connection dropped.
            if calls.increment() <= 2 { throw EngageError(.network, "connection reset", isRetryable: true) }
            return .json([:])
        }
        let error = await #expect(throws: EngageError.self) { try await retryClient(transport).data(.post, "/events") }
        #expect(error?.code == .network)
        #expect(calls.count == 1)

        let task = Task { [client = retryClient(transport)] in
            try await client.data(.post, "/events", options: RequestOptions(isRepeatable: true))
        }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(10))
        _ = try await task.value
        #expect(calls.count == 3)
    }

    @Test("a non-retryable status is returned at once")
    func notRetryable() async throws {
        let transport = InMemoryTransport { _ in .status(.badRequest) }
        let error = await #expect(throws: EngageError.self) { try await retryClient(transport).data(.get, "/x") }
        #expect(error?.httpStatus == 400)
        #expect(transport.requests.count == 1)
    }

    @Test("after a 401 the request is re-authorised and sent exactly once more")
    func unauthorizedRetryOnce() async throws {
        let refreshes = TestCounter()
        let manager = TokenManager(
            providerID: "test",
            refresher: ClosureTokenRefresher { [clock] _ in
                refreshes.increment()
                return TokenPair(accessToken: makeJWT(expiresAt: clock.now.addingTimeInterval(3600), subject: "new"), refreshToken: "r2")
            },
            clock: clock
        )
        let original = makeJWT(expiresAt: clock.now.addingTimeInterval(3600), subject: "old")
        try await manager.setTokens(TokenPair(accessToken: original, refreshToken: "r1"))
        let transport = InMemoryTransport { request in
            request.bearerToken == original ? .status(.unauthorized) : .json(["ok": true])
        }
        _ = try await retryClient(transport, authorizer: BearerAuthorizer(tokens: manager)).data(.get, "/me")
        #expect(refreshes.count == 1)
        #expect(transport.requests.map(\.bearerToken) == [original, try await manager.currentTokens()?.accessToken])
    }

    @Test("a second 401 is the call's error: no loop")
    func unauthorizedNoLoop() async throws {
        let refreshes = TestCounter()
        let manager = TokenManager(
            providerID: "test",
            refresher: ClosureTokenRefresher { [clock] _ in
                TokenPair(
                    accessToken: makeJWT(expiresAt: clock.now.addingTimeInterval(3600), subject: "n\(refreshes.increment())"),
                    refreshToken: "r")
            },
            clock: clock
        )
        try await manager.setTokens(TokenPair(accessToken: makeJWT(expiresAt: clock.now.addingTimeInterval(3600)), refreshToken: "r"))
        let transport = InMemoryTransport { _ in .status(.unauthorized) }
        let error = await #expect(throws: EngageError.self) {
            try await retryClient(transport, authorizer: BearerAuthorizer(tokens: manager)).data(.get, "/me")
        }
        #expect(error?.httpStatus == 401)
        #expect(transport.requests.count == 2)
        #expect(refreshes.count == 1)
    }

    @Test("a required authorisation without a session fails before any network call")
    func requiredWithoutSession() async throws {
        let manager = TokenManager(providerID: "test", refresher: ClosureTokenRefresher { $0 }, clock: clock)
        let transport = InMemoryTransport { _ in .json([:]) }
        let client = retryClient(transport, authorizer: BearerAuthorizer(tokens: manager))
        let error = await #expect(throws: EngageError.self) {
            try await client.data(.get, "/me", options: RequestOptions(authorization: .required))
        }
        #expect(error?.code == .unauthorized)
        #expect(transport.requests.isEmpty)
        // Optional authorisation goes out without a header.
        _ = try await client.data(.get, "/public")
        #expect(transport.requests.first?.bearerToken == nil)
    }

    @Test("an attempt slower than its timeout fails with .timeout on the injected clock")
    func timeout() async throws {
        let transport = InMemoryTransport { _ in
            try await Task.sleep(for: .seconds(3600))
            return .json([:])
        }
        let stack = MiddlewareTransport(transport: transport, middlewares: [TimeoutMiddleware(defaultTimeout: .seconds(5), clock: clock)])
        let task = Task { try await stack.send(.get("/slow")) }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(5))
        do {
            _ = try await task.value
            Issue.record("expected a timeout")
        } catch let error as EngageError {
            #expect(error.code == .timeout)
            #expect(error.isRetryable)
        }
    }

    @Test("signed headers, basic and composite authorisers add their headers")
    func otherAuthorizers() async throws {
        struct Signer: RequestSigner {
            func signatureHeaders(for request: HTTPRequestMessage, at date: Date) async throws -> HTTPFields {
                [HTTPField.Name("loyalty-date")!: "\(Int(date.timeIntervalSince1970))", HTTPField.Name("loyalty-signature")!: "abc"]
            }
        }
        var request = HTTPRequestMessage.get("/x")
        try await CompositeAuthorizer([
            SignedHeadersAuthorizer(signer: Signer(), clock: clock), BasicAuthorizer(username: "u", password: "p"),
        ])
        .authorize(&request)
        #expect(request.head.headerFields[HTTPField.Name("loyalty-date")!] == "1700000000")
        #expect(request.head.headerFields[.authorization] == "Basic dTpw")
    }

    @Test("the host-token authoriser refreshes an expired host token once for all waiting requests")
    func hostTokenSingleFlight() async throws {
        final class Host: HostTokenProvider {
            let token: Locked<String?>
            let refreshes = TestCounter()
            let fresh: String
            init(expired: String, fresh: String) {
                token = Locked(expired)
                self.fresh = fresh
            }
            func accessToken() async -> String? { token.value }
            func refreshAccessToken() async throws -> String {
                refreshes.increment()
                try await Task.sleep(for: .milliseconds(20))
                token.withLock { $0 = fresh }
                return fresh
            }
        }
        let host = Host(
            expired: makeJWT(expiresAt: clock.now.addingTimeInterval(-1)), fresh: makeJWT(expiresAt: clock.now.addingTimeInterval(600)))
        let authorizer = HostTokenAuthorizer(provider: host, clock: clock)
        try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    var request = HTTPRequestMessage.get("/content")
                    try await authorizer.authorize(&request)
                    return request.bearerToken
                }
            }
            for try await token in group { #expect(token == host.fresh) }
        }
        #expect(host.refreshes.count == 1)
    }
}

@Suite("Timeouts enforced by the transport", .bounded)
struct TransportEnforcedTimeoutTests {
    /// A transport that says it enforces timeouts and records the timeout it was given.
    final class EnforcingTransport: HTTPTransport {
        let seen = Locked<[Duration?]>([])
        var enforcesTimeouts: Bool { true }

        func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
            seen.withLock { $0.append(request.options.timeout) }
            return .json(["ok": true])
        }
    }

    @Test("the stack passes the timeout on and does not race a transport that enforces it")
    func noRace() async throws {
        let clock = FakeClock()
        let transport = EnforcingTransport()
        let stack = APIClient.standardTransport(around: transport, timeout: .seconds(7), clock: clock, logger: Logger(label: "t"))
        _ = try await stack.send(.get("/x"))
        #expect(transport.seen.value == [.seconds(7)])
        #expect(clock.totalSleepCount == 0)

        // A transport that does not enforce timeouts is raced against the clock: it answers only once
        // the middleware's timer sleeps, so the count does not depend on which task runs first.
        let plain = InMemoryTransport { _ in
            await clock.waitForSleepers(1)
            return .json([:])
        }
        _ = try await APIClient.standardTransport(around: plain, timeout: .seconds(7), clock: clock, logger: Logger(label: "t"))
            .send(.get("/x"))
        #expect(clock.totalSleepCount == 1)
        #expect(URLSessionTransport().enforcesTimeouts)
    }
}
