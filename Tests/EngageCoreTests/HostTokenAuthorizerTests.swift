@testable import EngageCore
import EngageTesting
import Foundation
import HTTPTypes
import Testing

/// A host app session: `refreshAccessToken` hands out `host-<n>` and makes it current.
actor FakeHostSession: HostTokenProvider {
    private(set) var token: String? = "host-0"
    private(set) var refreshes = 0
    private let gate: TestGate?
    private let failure: (any Error)?

    init(gate: TestGate? = nil, failure: (any Error)? = nil) {
        self.gate = gate
        self.failure = failure
    }

    func accessToken() async -> String? { token }

    func refreshAccessToken() async throws -> String {
        refreshes += 1
        let next = "host-\(refreshes)"
        if let gate { await gate.wait() }
        if let failure { throw failure }
        token = next
        return next
    }

    func logOut() { token = nil }
}

@Suite("HostTokenAuthorizer")
struct HostTokenAuthorizerTests {
    @Test("401s for a token that was already refreshed do not refresh again")
    func staleUnauthorizedDoesNotRefresh() async throws {
        let host = FakeHostSession()
        let authorizer = HostTokenAuthorizer(provider: host, clock: FakeClock())
        var request = HTTPRequestMessage.get("/me")
        try await authorizer.authorize(&request)
        #expect(request.bearerToken == "host-0")
        #expect(try await authorizer.renewAfterUnauthorized(request))
        #expect(await host.refreshes == 1)
        // Ten more 401s for host-0 arrive after that refresh finished.
        let sent = request
        let renewals = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<10 { group.addTask { try await authorizer.renewAfterUnauthorized(sent) } }
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
        #expect(try await authorizer.renewAfterUnauthorized(retry))
        #expect(await host.refreshes == 2)
    }

    @Test("through the middleware: one refresh, and each request is resent once with the new token")
    func middlewareResend() async throws {
        let host = FakeHostSession()
        let transport = InMemoryTransport { request in
            request.bearerToken == "host-0" ? .status(.unauthorized) : .json(["ok": true])
        }
        let stack = MiddlewareTransport(
            transport: transport,
            middlewares: [AuthorizationMiddleware(authorizer: HostTokenAuthorizer(provider: host, clock: FakeClock()))]
        )
        #expect(try await stack.send(.get("/a")).status == 200)
        #expect(try await stack.send(.get("/b")).status == 200)
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
        let first = Task { try await authorizer.renewAfterUnauthorized(sent) }
        await eventually { await host.refreshes == 1 }
        let joiners = (0..<3).map { _ in Task { try await authorizer.renewAfterUnauthorized(sent) } }
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
        #expect(try await !authorizer.renewAfterUnauthorized(request))
        #expect(await host.refreshes == 0)
    }
}
