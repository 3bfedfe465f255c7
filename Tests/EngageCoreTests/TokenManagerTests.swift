import EngageCore
import EngageTesting
import Foundation
import HTTPTypes
import Testing

@Suite("TokenManager")
struct TokenManagerTests {
    let clock = FakeClock()

    func expiredPair(_ suffix: String = "old") -> TokenPair {
        TokenPair(accessToken: makeJWT(expiresAt: clock.now.addingTimeInterval(-10), subject: suffix), refreshToken: "refresh-\(suffix)")
    }

    func freshPair(_ suffix: String) -> TokenPair {
        TokenPair(accessToken: makeJWT(expiresAt: clock.now.addingTimeInterval(3600), subject: suffix), refreshToken: "refresh-\(suffix)")
    }

    @Test("1000 concurrent callers with an expired token share exactly one refresh")
    func refreshStorm() async throws {
        let refreshes = Counter()
        let gate = Gate()
        let newPair = freshPair("new")
        let manager = TokenManager(
            providerID: "test",
            refresher: ClosureTokenRefresher { _ in
                refreshes.increment()
                await gate.wait()
                return newPair
            },
            clock: clock
        )
        try await manager.setTokens(expiredPair())
        let tokens = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<1000 {
                group.addTask { try await manager.validAccessToken() }
            }
            // Let every caller reach the manager before the single refresh completes.
            for _ in 0..<50 { await Task.yield() }
            gate.open()
            var tokens: [String?] = []
            for try await token in group { tokens.append(token) }
            return tokens
        }
        #expect(refreshes.count == 1)
        #expect(tokens.count == 1000)
        #expect(tokens.allSatisfy { $0 == newPair.accessToken })
        #expect(try await manager.currentTokens() == newPair)
    }

    @Test("a refresh that finishes after logout does not resurrect the session")
    func generationGuardLogout() async throws {
        let gate = Gate()
        let manager = TokenManager(
            providerID: "test",
            refresher: ClosureTokenRefresher { [pair = freshPair("late")] _ in
                await gate.wait()
                return pair
            },
            clock: clock
        )
        try await manager.setTokens(expiredPair())
        let refresh = Task { try await manager.refresh() }
        while await manager.refreshCount == 0 { await Task.yield() }
        try await manager.clear()
        gate.open()
        await #expect(throws: EngageError.self) { try await refresh.value }
        #expect(try await manager.currentTokens() == nil)
    }

    @Test("a refresh that finishes after a new login keeps the new login's tokens")
    func generationGuardLogin() async throws {
        let gate = Gate()
        let manager = TokenManager(
            providerID: "test",
            refresher: ClosureTokenRefresher { [pair = freshPair("stale")] _ in
                await gate.wait()
                return pair
            },
            clock: clock
        )
        try await manager.setTokens(expiredPair())
        let refresh = Task { try await manager.refresh() }
        while await manager.refreshCount == 0 { await Task.yield() }
        let login = freshPair("login")
        try await manager.setTokens(login)
        gate.open()
        let returned = try await refresh.value
        #expect(returned == login)
        #expect(try await manager.currentTokens() == login)
    }

    @Test("a finished refresh never clears the slot of a newer one; each refresh is single-flight")
    func lateCompletionDoesNotClearNewerRefresh() async throws {
        let refreshes = Counter()
        let gates = [Gate(), Gate()]
        let manager = TokenManager(
            providerID: "test",
            refresher: ClosureTokenRefresher { [clock] _ in
                let index = refreshes.increment() - 1
                await gates[min(index, 1)].wait()
                return TokenPair(
                    accessToken: makeJWT(expiresAt: clock.now.addingTimeInterval(-1), subject: "gen\(index)"),
                    refreshToken: "r\(index)"
                )
            },
            clock: clock
        )
        try await manager.setTokens(expiredPair())
        let first = Task { try await manager.refresh() }
        while await manager.refreshCount == 0 { await Task.yield() }
        gates[0].open()
        _ = try await first.value
        // The first refresh returned an already expired token: the next callers start refresh #2 and
        // must all join it rather than starting a third.
        let callers = (0..<20).map { _ in Task { try await manager.validAccessToken() } }
        while await manager.refreshCount < 2 { await Task.yield() }
        for _ in 0..<50 { await Task.yield() }
        gates[1].open()
        for caller in callers { _ = try await caller.value }
        #expect(refreshes.count == 2)
    }

    @Test("a token inside the proactive window is refreshed before use")
    func proactiveRefresh() async throws {
        let refreshes = Counter()
        let manager = TokenManager(
            providerID: "test",
            refresher: ClosureTokenRefresher { [pair = freshPair("new")] _ in
                refreshes.increment()
                return pair
            },
            clock: clock,
            policy: .init(proactiveRefreshWindow: .seconds(300))
        )
        let soon = TokenPair(accessToken: makeJWT(expiresAt: clock.now.addingTimeInterval(200)), refreshToken: "r")
        try await manager.setTokens(soon)
        let token = try await manager.validAccessToken()
        #expect(refreshes.count == 1)
        #expect(token == freshPair("new").accessToken)
        // Outside the window nothing happens.
        _ = try await manager.validAccessToken()
        #expect(refreshes.count == 1)
    }

    @Test("the proactive window is capped at half the lifetime of a short-lived token")
    func shortLivedTokens() {
        let issued = clock.now
        let pair = TokenPair(accessToken: "opaque", expiresAt: issued.addingTimeInterval(300), issuedAt: issued)
        #expect(!pair.needsRefresh(at: issued.addingTimeInterval(10), window: .seconds(300)))
        #expect(pair.needsRefresh(at: issued.addingTimeInterval(150), window: .seconds(300)))
        #expect(pair.needsRefresh(at: issued.addingTimeInterval(300)))
    }

    @Test("a transient failure of a proactive refresh still returns the valid token")
    func proactiveRefreshTransientFailure() async throws {
        let manager = TokenManager(
            providerID: "test",
            refresher: ClosureTokenRefresher { _ in throw EngageError.http(status: 503) },
            clock: clock
        )
        let soon = TokenPair(accessToken: makeJWT(expiresAt: clock.now.addingTimeInterval(100)), refreshToken: "r")
        try await manager.setTokens(soon)
        #expect(try await manager.validAccessToken() == soon.accessToken)
    }

    @Test("a rejected refresh ends the session: tokens cleared, event published, sessionExpired thrown")
    func rejectedRefresh() async throws {
        let bus = EventBus(callbackQueue: .queue(DispatchQueue(label: "test")))
        let store = InMemoryTokenStore()
        let manager = TokenManager(
            providerID: "test",
            refresher: ClosureTokenRefresher { _ in throw EngageError.http(status: 401) },
            store: store, clock: clock, events: bus
        )
        let ended = bus.stream(of: SessionEndedEvent.self)
        try await manager.setTokens(expiredPair())
        await #expect(throws: EngageError.self) { try await manager.validAccessToken() }
        do {
            _ = try await manager.refresh()
        } catch {
            // No session left to refresh.
            #expect((error as? EngageError)?.code == .unauthorized)
        }
        #expect(try await manager.currentTokens() == nil)
        #expect(try store.load() == nil)
        var iterator = ended.makeAsyncIterator()
        let event = await iterator.next()
        #expect(event?.providerID == "test")
    }

    @Test("a transient refresh failure keeps the tokens and counts towards the breaker")
    func transientRefreshKeepsTokens() async throws {
        let attempts = Counter()
        let manager = TokenManager(
            providerID: "test",
            refresher: ClosureTokenRefresher { _ in
                attempts.increment()
                throw EngageError.http(status: 503)
            },
            clock: clock,
            policy: .init(circuitBreaker: .init(failureThreshold: 3, cooldown: .seconds(60)))
        )
        let old = expiredPair()
        try await manager.setTokens(old)
        for _ in 0..<3 {
            do {
                _ = try await manager.validAccessToken()
                Issue.record("expected a failure")
            } catch let error as EngageError {
                #expect(error.isRetryable)
                #expect(error.httpStatus == 503)
            }
        }
        #expect(try await manager.currentTokens() == old)
        // The breaker is open now: no fourth network attempt.
        do {
            _ = try await manager.validAccessToken()
            Issue.record("expected circuitOpen")
        } catch let error as EngageError {
            #expect(error.code == .circuitOpen)
        }
        #expect(attempts.count == 3)
        clock.advance(by: .seconds(61))
        #expect(manager.breaker.state == .halfOpen)
    }

    @Test("after a 401 the manager refreshes only if the failed token is still current")
    func unauthorizedWithStaleToken() async throws {
        let refreshes = Counter()
        let manager = TokenManager(
            providerID: "test",
            refresher: ClosureTokenRefresher { [pair = freshPair("new")] _ in
                refreshes.increment()
                return pair
            },
            clock: clock
        )
        let current = freshPair("current")
        try await manager.setTokens(current)
        #expect(try await manager.accessTokenAfterUnauthorized(failedAccessToken: "some-older-token") == current.accessToken)
        #expect(refreshes.count == 0)
        #expect(try await manager.accessTokenAfterUnauthorized(failedAccessToken: current.accessToken) == freshPair("new").accessToken)
        #expect(refreshes.count == 1)
    }

    @Test("tokens are persisted and reloaded by a new manager")
    func persistence() async throws {
        let store = InMemoryTokenStore()
        let refresher = ClosureTokenRefresher { $0 }
        let first = TokenManager(providerID: "test", refresher: refresher, store: store, clock: clock)
        let pair = freshPair("saved")
        try await first.setTokens(pair)
        let second = TokenManager(providerID: "test", refresher: refresher, store: store, clock: clock)
        #expect(try await second.currentTokens() == pair)
        try await second.clear()
        #expect(try store.load() == nil)
    }
}
