@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import HTTPTypes
import EngageTestTraits
import Testing

/// A host app session: `refreshAccessToken` hands out `host-<n>` and makes it current.
actor FakeHostSession: HostTokenProvider {
    private(set) var token: String? = "host-0"
    private(set) var refreshes = 0
    private let gate: TestGate?
    private let failure: (any Error)?

    init(gate: TestGate? = nil, failure: (any Error)? = nil, token: String? = "host-0") {
        self.gate = gate
        self.failure = failure
        self.token = token
    }

    func switchUser(to newToken: String) { token = newToken }

    func accessToken() async -> String? { token }

    func refreshAccessToken() async throws -> String {
        refreshes += 1
        let next = "host-\(refreshes)"
        if let gate {
            await gate.wait()
            // A refresh held at the gate models a host that never answers: cancelled (abandoned by
            // the SDK), it ends without a token, as an abandoned URL request would.
            try Task.checkCancellation()
        }
        if let failure { throw failure }
        token = next
        return next
    }

    func logOut() { token = nil }
}

@Suite("HostTokenAuthorizer", .bounded)
struct HostTokenAuthorizerTests {
    @Test("401s for a token that was already refreshed do not refresh again")
    func staleUnauthorizedDoesNotRefresh() async throws {
        let host = FakeHostSession()
        let authorizer = HostTokenAuthorizer(provider: host, clock: FakeClock())
        var request = HTTPRequestMessage.get("/me")
        try await authorizer.authorize(&request)
        #expect(request.bearerToken == "host-0")
        #expect(try await authorizer.renew(after: .unauthorized(request)))
        #expect(await host.refreshes == 1)
        // Ten more 401s for host-0 arrive after that refresh finished.
        let sent = request
        let renewals = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<10 { group.addTask { try await authorizer.renew(after: .unauthorized(sent)) } }
            var results: [Bool] = []
            for try await result in group { results.append(result) }
            return results
        }
        #expect(renewals == Array(repeating: true, count: 10))
        #expect(await host.refreshes == 1)
        var retry = HTTPRequestMessage.get("/me")
        try await authorizer.authorize(&retry)
        #expect(retry.bearerToken == "host-1")
        // A 401 for the current token does refresh.
        #expect(try await authorizer.renew(after: .unauthorized(retry)))
        #expect(await host.refreshes == 2)
    }

    @Test("through a client: one refresh, and each request is resent once with the new token")
    func middlewareResend() async throws {
        let host = FakeHostSession()
        let transport = InMemoryTransport { request in
            request.bearerToken == "host-0" ? .status(.unauthorized) : .json(["ok": true])
        }
        let client = APIClient(
            baseURL: URL(string: "https://api.example.com")!, transport: transport,
            authorizer: HostTokenAuthorizer(provider: host, clock: FakeClock()))
        _ = try await client.data(.get, "/a")
        _ = try await client.data(.get, "/b")
        #expect(await host.refreshes == 1)
        #expect(transport.requests.map(\.bearerToken) == ["host-0", "host-1", "host-1"])
    }

    @Test("every caller of a failed refresh, joiners included, gets an EngageError")
    func joinersGetEngageError() async throws {
        let gate = TestGate()
        let host = FakeHostSession(gate: gate, failure: URLError(.notConnectedToInternet))
        let authorizer = HostTokenAuthorizer(provider: host, clock: FakeClock(), providerID: "youll")
        var request = HTTPRequestMessage.get("/me")
        try await authorizer.authorize(&request)
        let sent = request
        let first = Task { try await authorizer.renew(after: .unauthorized(sent)) }
        await eventually { await host.refreshes == 1 }
        let joiners = (0..<3).map { _ in Task { try await authorizer.renew(after: .unauthorized(sent)) } }
        await eventually { await authorizer.joinedCallerCount == 3 }
        #expect(await authorizer.joinedCallerCount == 3)
        gate.open()
        for task in [first] + joiners {
            do {
                _ = try await task.value
                Issue.record("expected a failure")
            } catch {
                let engageError = try #require(error as? EngageError, "\(type(of: error))")
                #expect(engageError.code == .network)
                #expect(engageError.providerID == "youll")
            }
        }
        #expect(await host.refreshes == 1)
    }

    @Test("after the host logged out, a 401 is returned without asking for a refresh")
    func loggedOutHost() async throws {
        let host = FakeHostSession()
        let authorizer = HostTokenAuthorizer(provider: host, clock: FakeClock())
        var request = HTTPRequestMessage.get("/me")
        try await authorizer.authorize(&request)
        await host.logOut()
        #expect(try await !authorizer.renew(after: .unauthorized(request)))
        #expect(await host.refreshes == 0)
    }

    @Test("a refreshed token is used only while the host still hands out the token it replaced: the next user never gets it")
    func refreshedTokenStaysWithItsUser() async throws {
        let clock = FakeClock()
        let expired = clock.now.addingTimeInterval(-60)
        let valid = clock.now.addingTimeInterval(3600)
        let host = ScriptedHostSession(token: makeJWT(expiresAt: expired, subject: "ana"))
        let authorizer = HostTokenAuthorizer(provider: host, clock: clock)
        // Ana's token has expired: one refresh, and the host is slow to hand out the new token.
        let anaRefreshed = makeJWT(expiresAt: valid, subject: "ana")
        await host.setNextRefresh(anaRefreshed, adopts: false)
        var first = HTTPRequestMessage.get("/me")
        try await authorizer.authorize(&first)
        #expect(first.bearerToken == anaRefreshed)
        var second = HTTPRequestMessage.get("/me")
        try await authorizer.authorize(&second)
        #expect(second.bearerToken == anaRefreshed, "the replaced token is still current: its refresh is reused")
        #expect(await host.refreshes == 1)
        // Ana logs out; Ben's restored session has an expired token too.
        let benRefreshed = makeJWT(expiresAt: valid, subject: "ben")
        await host.switchUser(to: makeJWT(expiresAt: expired, subject: "ben"), nextRefresh: benRefreshed)
        var bens = HTTPRequestMessage.get("/me")
        try await authorizer.authorize(&bens)
        #expect(bens.bearerToken == benRefreshed, "Ben's request must never carry Ana's token")
        #expect(await host.refreshes == 2)
        // A 401 for Ben's token does not fall back to Ana's either.
        await host.switchUser(to: makeJWT(expiresAt: expired, subject: "cy"), nextRefresh: makeJWT(expiresAt: valid, subject: "cy"))
        var cys = HTTPRequestMessage.get("/me")
        try await authorizer.authorize(&cys)
        #expect(cys.bearerToken != anaRefreshed && cys.bearerToken != benRefreshed)
    }
}

extension HostTokenAuthorizerTests {
    @Test("a caller cancelled during a host refresh never lets a second refresh of the same token start", .bounded(deadline: .seconds(60)))
    func cancelledStarterKeepsSingleFlight() async throws {
        let clock = FakeClock()
        let gate = TestGate()
        let expired = makeJWT(expiresAt: clock.now.addingTimeInterval(-60), subject: "ana")
        let host = FakeHostSession(gate: gate, token: expired)
        let authorizer = HostTokenAuthorizer(provider: host, clock: clock)
        let starter = Task {
            var request = HTTPRequestMessage.get("/me")
            try await authorizer.authorize(&request)
        }
        await eventually { await host.refreshes == 1 }
        starter.cancel()
        _ = await starter.result
        // The next request with the same expired token joins the refresh still in flight.
        let next = Task { () -> String? in
            var request = HTTPRequestMessage.get("/me")
            try await authorizer.authorize(&request)
            return request.bearerToken
        }
        await eventually { await authorizer.joinedCallerCount == 1 }
        gate.open()
        #expect(try await next.value == "host-1")
        #expect(await host.refreshes == 1)
    }

    @Test("another user's request never joins the refresh of the previous user's token", .bounded(deadline: .seconds(60)))
    func otherUserNeverJoins() async throws {
        let clock = FakeClock()
        let gate = TestGate()
        let host = FakeHostSession(gate: gate, token: makeJWT(expiresAt: clock.now.addingTimeInterval(-60), subject: "ana"))
        let authorizer = HostTokenAuthorizer(provider: host, clock: clock)
        let anas = Task { () -> String? in
            var request = HTTPRequestMessage.get("/me")
            try await authorizer.authorize(&request)
            return request.bearerToken
        }
        await eventually { await host.refreshes == 1 }
        // Ana logs out while her refresh is slow; Ben's restored token has expired too.
        await host.switchUser(to: makeJWT(expiresAt: clock.now.addingTimeInterval(-60), subject: "ben"))
        let bens = Task { () -> String? in
            var request = HTTPRequestMessage.get("/me")
            try await authorizer.authorize(&request)
            return request.bearerToken
        }
        await eventually { await host.refreshes == 2 }
        gate.open()
        let anaToken = try await anas.value
        let benToken = try await bens.value
        #expect(anaToken != benToken, "Ben's request must not carry the token of Ana's refresh")
        #expect(await authorizer.joinedCallerCount == 0)
    }
}

/// A host session the test scripts: the token it hands out, what its next refresh returns, and
/// whether it then hands that out.
actor ScriptedHostSession: HostTokenProvider {
    private var token: String?
    private var nextRefresh = "unscripted"
    private var adopts = true
    private(set) var refreshes = 0

    init(token: String?) { self.token = token }

    func accessToken() async -> String? { token }

    func refreshAccessToken() async throws -> String {
        refreshes += 1
        if adopts { token = nextRefresh }
        return nextRefresh
    }

    func setNextRefresh(_ value: String, adopts: Bool) {
        nextRefresh = value
        self.adopts = adopts
    }

    func switchUser(to newToken: String, nextRefresh value: String) {
        token = newToken
        nextRefresh = value
        adopts = true
    }
}

@Suite("HostTokenAuthorizer: a host refresh that never answers", .bounded)
struct HostTokenAuthorizerTimeoutTests {
    @Test("every waiting call ends with .timeout after the refresh limit; the next call asks the host again")
    func aHangingHostRefreshTimesOut() async throws {
        let clock = FakeClock()
        let gate = TestGate()
        let host = FakeHostSession(gate: gate, token: makeJWT(expiresAt: clock.now.addingTimeInterval(-10)))
        let authorizer = HostTokenAuthorizer(provider: host, clock: clock)
        let calls = (0..<5).map { _ in
            Task { () -> EngageError? in
                var request = HTTPRequestMessage.get("/me", authorization: .required)
                do {
                    try await authorizer.authorize(&request)
                    return nil
                } catch {
                    return error as? EngageError
                }
            }
        }
        // One refresh, and each of the five callers waiting on its own timer.
        try #require(await waitUntil { await host.refreshes == 1 && clock.sleeperCount == 5 })
        clock.advance(by: 59)
        #expect(await host.refreshes == 1)
        clock.advance(by: 1)
        for call in calls {
            let error = await call.value
            #expect(error?.code == .timeout)
            #expect(error?.isRetryable == true)
        }
        // The hung refresh was abandoned: a later call starts a new one.
        let later = Task {
            var request = HTTPRequestMessage.get("/me", authorization: .required)
            try? await authorizer.authorize(&request)
        }
        try #require(await waitUntil { await host.refreshes == 2 })
        gate.open()
        _ = await later.value
    }
}
