@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import HTTPTypes
import Logging
import EngageTestTraits
import Testing

@Suite("TokenManager", .bounded)
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
        let refreshes = TestCounter()
        let gate = TestGate()
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
            // Every caller but the one that started the refresh must have joined it before it completes.
            await eventually { await manager.joinedCallerCount == 999 }
            #expect(await manager.joinedCallerCount == 999)
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

    @Test(
        "a caller cancelled while a refresh is in flight returns .cancelled at once; the refresh goes on for the others",
        .bounded(deadline: .seconds(60)))
    func cancelledWaiterReturnsAtOnce() async throws {
        let gate = TestGate()
        let newPair = freshPair("new")
        let manager = TokenManager(
            providerID: "test",
            refresher: ClosureTokenRefresher { _ in
                await gate.wait()
                return newPair
            },
            clock: clock
        )
        try await manager.setTokens(expiredPair())
        let starter = Task { try await manager.validAccessToken() }
        let joiner = Task { try await manager.validAccessToken() }
        let staying = Task { try await manager.validAccessToken() }
        await eventually { await manager.joinedCallerCount == 2 }
        // Both the caller that started the refresh and one that joined it give up; the refresher still waits.
        starter.cancel()
        joiner.cancel()
        for cancelled in [starter, joiner] {
            let error = await #expect(throws: EngageError.self) { try await cancelled.value }
            #expect(error?.code == .cancelled)
        }
        #expect(await manager.refreshCount == 1)
        gate.open()
        #expect(try await staying.value == newPair.accessToken)
        #expect(try await manager.currentTokens() == newPair, "the refresh finished and its tokens were stored")
    }

    @Test(
        "a refresher that never answers is bounded by the refresh timeout: .timeout, and the next call starts afresh",
        .bounded(deadline: .seconds(60)))
    func refresherThatNeverAnswers() async throws {
        let calls = TestCounter()
        let never = TestGate()
        let newPair = freshPair("new")
        let manager = TokenManager(
            providerID: "test",
            refresher: ClosureTokenRefresher { _ in
                if calls.increment() == 1 {
                    // The first refresh hangs for good; abandoned (cancelled), it ends without tokens,
                    // as a cancelled request does.
                    await never.wait()
                    try Task.checkCancellation()
                }
                return newPair
            },
            clock: clock,
            settings: AuthSettings(refreshTimeoutSeconds: 30)
        )
        try await manager.setTokens(expiredPair())
        let hung = Task { try await manager.validAccessToken() }
        let joiner = Task { try await manager.validAccessToken() }
        defer { never.open() }
        await eventually { await manager.joinedCallerCount == 1 }
        await clock.waitForSleepers(2)  // each caller's wait is timed
        clock.advance(by: .seconds(30))
        for waiting in [hung, joiner] {
            let error = await #expect(throws: EngageError.self) { try await waiting.value }
            #expect(error?.code == .timeout)
            #expect(error?.isRetryable == true)
        }
        // The hung refresh is abandoned: the next call refreshes on its own and succeeds.
        #expect(try await manager.validAccessToken() == newPair.accessToken)
        #expect(calls.count == 2)
    }

    @Test("a refresh that finishes after logout does not resurrect the session")
    func generationGuardLogout() async throws {
        let gate = TestGate()
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
        // "No session" rather than "session expired": the user logged out, nothing was rejected.
        let error = await #expect(throws: EngageError.self) { try await refresh.value }
        #expect(error?.code == .unauthorized)
        #expect(try await manager.currentTokens() == nil)
    }

    @Test("a refresh that finishes after a new login keeps the new login's tokens")
    func generationGuardLogin() async throws {
        let gate = TestGate()
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

    @Test("a late refresh of an old session never clears the slot of the new session's refresh")
    func lateCompletionDoesNotClearNewerRefresh() async throws {
        let refreshes = TestCounter()
        let gates = [TestGate(), TestGate()]
        let second = freshPair("second")
        let manager = TokenManager(
            providerID: "test",
            refresher: ClosureTokenRefresher { [first = freshPair("first")] _ in
                let index = refreshes.increment() - 1
                await gates[min(index, 1)].wait()
                return index == 0 ? first : second
            },
            clock: clock
        )
        try await manager.setTokens(expiredPair("a"))
        let stale = Task { try await manager.refresh() }
        await eventually { await manager.refreshCount == 1 }
        // A logout and a new login (whose token needs a refresh too) detach refresh #1; refresh #2 starts.
        try await manager.clear()
        try await manager.setTokens(expiredPair("b"))
        let starter = Task { try await manager.validAccessToken() }
        await eventually { await manager.refreshCount == 2 }
        // Refresh #1 finishes late: its callers get the current tokens, and refresh #2 stays registered.
        gates[0].open()
        #expect(try await stale.value == expiredPair("b"))
        let callers = (0..<20).map { _ in Task { try await manager.validAccessToken() } }
        await eventually { await manager.joinedCallerCount == 20 }
        #expect(await manager.joinedCallerCount == 20)
        gates[1].open()
        for caller in callers { #expect(try await caller.value == second.accessToken) }
        #expect(try await starter.value == second.accessToken)
        #expect(refreshes.count == 2)
        #expect(try await manager.currentTokens() == second)
    }

    @Test("after logout and login during a slow refresh, a 401 on the new token refreshes on its own")
    func renewAfterReloginDoesNotJoinStaleRefresh() async throws {
        let calls = TestCounter()
        let staleGate = TestGate()
        let renewed = freshPair("renewed")
        let manager = TokenManager(
            providerID: "test",
            refresher: ClosureTokenRefresher { [stalePair = freshPair("stale")] _ in
                if calls.increment() == 1 {
                    await staleGate.wait()
                    return stalePair
                }
                return renewed
            },
            clock: clock
        )
        try await manager.setTokens(expiredPair())
        let stale = Task { try await manager.refresh() }
        await eventually { await manager.refreshCount == 1 }
        try await manager.clear()
        let login = freshPair("login")
        try await manager.setTokens(login)
        let renewal = Task { try await manager.accessTokenAfterUnauthorized(failedAccessToken: login.accessToken) }
        // Either the renewal starts its own refresh (right) or it joins the stale one (wrong).
        await eventually {
            let joined = await manager.joinedCallerCount
            return calls.count == 2 || joined > 0
        }
        #expect(await manager.joinedCallerCount == 0)
        staleGate.open()
        #expect(try await renewal.value == renewed.accessToken)
        #expect(try await stale.value != freshPair("stale"))
        #expect(calls.count == 2)
        #expect(try await manager.currentTokens() == renewed)
    }

    @Test("a rejected refresh of an old session neither clears nor ends the new one")
    func lateRejectionKeepsNewSession() async throws {
        let queue = DispatchQueue(label: "late-rejection")
        let bus = EventBus()
        let ended = TestCounter()
        let subscription = bus.subscribe(to: SessionEndedEvent.self, on: queue) { _ in ended.increment() }
        let gate = TestGate()
        let store = InMemoryTokenStore()
        let manager = TokenManager(
            providerID: "test",
            refresher: ClosureTokenRefresher { _ in
                await gate.wait()
                throw EngageError.http(status: 400)
            },
            store: store, clock: clock, events: bus
        )
        try await manager.setTokens(expiredPair())
        let stale = Task { try await manager.refresh() }
        await eventually { await manager.refreshCount == 1 }
        let login = freshPair("login")
        try await manager.setTokens(login)
        gate.open()
        #expect(try await stale.value == login)
        #expect(try await manager.currentTokens() == login)
        #expect(try store.load() == login)
        // Anything published was dispatched to the queue already: drain it.
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
        #expect(ended.count == 0)
        subscription.cancel()
    }

    @Test("a stored session that cannot be opened counts as no session and does not block a new login")
    func unreadableStoredSession() async throws {
        for code in [EngageError.Code.crypto, .decoding] {
            let capture = LogCapture()
            let store = FailingTokenStore(loadError: EngageError(code, "The sealed value does not open."))
            let manager = TokenManager(
                providerID: "test", refresher: ClosureTokenRefresher { $0 }, store: store, clock: clock,
                logger: capture.logger(level: .trace)
            )
            #expect(try await manager.currentTokens() == nil)
            #expect(store.clearCount == 1)
            #expect(capture.entries.contains { $0.level == .warning && $0.text.contains(code.rawValue) })
            let login = freshPair("login")
            try await manager.setTokens(login)
            #expect(try await manager.validAccessToken() == login.accessToken)
            #expect(!capture.contains(login.accessToken))
        }
        // Login works even before anything was read.
        let store = FailingTokenStore(loadError: EngageError(.crypto, "no"))
        let manager = TokenManager(providerID: "test", refresher: ClosureTokenRefresher { $0 }, store: store, clock: clock)
        try await manager.setTokens(freshPair("direct"))
        #expect(try await manager.currentTokens() == freshPair("direct"))
        #expect(store.loadCount == 0)
    }

    @Test("a session sealed under another key is dropped, and logging in again works")
    func sessionSealedUnderAnotherKey() async throws {
        let database = try EngageDatabase(location: .inMemory)
        let oldSealer = try Sealer(store: InMemorySecretStore(), keyName: "engage.storage")
        try SealedTokenStore(namespace: database.namespace("test", sealer: oldSealer)).save(freshPair("old"))
        // A reinstall or a restored backup: the key store has a new key.
        let store = SealedTokenStore(
            namespace: try database.namespace("test", sealer: try Sealer(store: InMemorySecretStore(), keyName: "engage.storage")))
        #expect(try store.load() == nil, "a value that does not open reads as absent (moved aside), never as an error")
        let manager = TokenManager(providerID: "test", refresher: ClosureTokenRefresher { $0 }, store: store, clock: clock)
        #expect(try await manager.hasSession() == false)
        #expect(try store.load() == nil)
        try await manager.setTokens(freshPair("new"))
        #expect(try store.load() == freshPair("new"))
    }

    @Test("other storage failures while loading are still reported")
    func storageFailureIsThrown() async throws {
        let store = FailingTokenStore(loadError: EngageError(.storage, "disk I/O error"))
        let manager = TokenManager(providerID: "test", refresher: ClosureTokenRefresher { $0 }, store: store, clock: clock)
        let error = await #expect(throws: EngageError.self) { try await manager.currentTokens() }
        #expect(error?.code == .storage)
        #expect(store.clearCount == 0)
    }

    @Test("a token inside the proactive window is refreshed before use")
    func proactiveRefresh() async throws {
        let refreshes = TestCounter()
        let manager = TokenManager(
            providerID: "test",
            refresher: ClosureTokenRefresher { [pair = freshPair("new")] _ in
                refreshes.increment()
                return pair
            },
            clock: clock,
            settings: AuthSettings(proactiveRefreshSeconds: 300)
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
        let bus = EventBus()
        let store = InMemoryTokenStore()
        let manager = TokenManager(
            providerID: "test",
            refresher: ClosureTokenRefresher { _ in throw EngageError.http(status: 401) },
            store: store, clock: clock, events: bus
        )
        let ended = bus.stream(of: SessionEndedEvent.self)
        try await manager.setTokens(expiredPair())
        let error = await #expect(throws: EngageError.self) { try await manager.validAccessToken() }
        #expect(error?.code == .sessionExpired)
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
        let attempts = TestCounter()
        let manager = TokenManager(
            providerID: "test",
            refresher: ClosureTokenRefresher { _ in
                attempts.increment()
                throw EngageError.http(status: 503)
            },
            clock: clock,
            settings: AuthSettings(breakerFailureThreshold: 3, breakerCooldownSeconds: 60)
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
        let refreshes = TestCounter()
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

/// A token store whose `load` fails with a given error, counting calls.
final class FailingTokenStore: TokenStore {
    private let state = Locked<(loads: Int, clears: Int, saved: TokenPair?)>((0, 0, nil))
    private let loadError: EngageError

    init(loadError: EngageError) {
        self.loadError = loadError
    }

    var loadCount: Int { state.value.loads }
    var clearCount: Int { state.value.clears }

    func load() throws -> TokenPair? {
        state.withLock { $0.loads += 1 }
        throw loadError
    }

    func save(_ tokens: TokenPair) throws {
        state.withLock { $0.saved = tokens }
    }

    func clear() throws {
        state.withLock { $0.clears += 1 }
    }
}

/// A token store over another store whose `save` fails while `isFull` (a full disk).
final class FullDiskTokenStore: TokenStore {
    private let inner = InMemoryTokenStore()
    let isFull = Locked(false)

    func load() throws -> TokenPair? { try inner.load() }

    func save(_ tokens: TokenPair) throws {
        if isFull.value { throw EngageError(.storage, "disk full") }
        try inner.save(tokens)
    }

    func clear() throws { try inner.clear() }
}

@Suite("Token manager: a store that cannot save", .bounded)
struct TokenManagerFullDiskTests {
    let clock = FakeClock()

    /// A full disk during a rotating refresh: the rotated tokens (the only valid ones now) serve the
    /// call from memory and are saved on the next use once the disk has room, so the next launch finds
    /// them instead of the spent refresh token.
    @Test func rotatedTokensThatCannotBeSavedAreUsedAndSavedLater() async throws {
        let store = FullDiskTokenStore()
        let rotated = TokenPair(
            accessToken: makeJWT(expiresAt: clock.now.addingTimeInterval(3600), subject: "new"), refreshToken: "refresh-new")
        let manager = TokenManager(providerID: "test", refresher: ClosureTokenRefresher { _ in rotated }, store: store, clock: clock)
        try await manager.setTokens(
            TokenPair(accessToken: makeJWT(expiresAt: clock.now.addingTimeInterval(-10), subject: "old"), refreshToken: "refresh-old"))

        store.isFull.withLock { $0 = true }
        #expect(try await manager.validAccessToken() == rotated.accessToken)
        #expect(await manager.hasUnsavedTokens)
        #expect(try store.load()?.refreshToken == "refresh-old")

        store.isFull.withLock { $0 = false }
        #expect(try await manager.validAccessToken() == rotated.accessToken)
        #expect(await manager.hasUnsavedTokens == false)
        let relaunched = TokenManager(providerID: "test", refresher: ClosureTokenRefresher { _ in rotated }, store: store, clock: clock)
        #expect(try await relaunched.currentTokens() == rotated)
    }

    /// A login whose tokens cannot be saved fails and leaves the previous session in place.
    @Test func aLoginThatCannotBeSavedKeepsThePreviousSession() async throws {
        let store = FullDiskTokenStore()
        let manager = TokenManager(providerID: "test", refresher: ClosureTokenRefresher { $0 }, store: store, clock: clock)
        let first = TokenPair(accessToken: makeJWT(expiresAt: clock.now.addingTimeInterval(3600), subject: "a"), refreshToken: "refresh-a")
        try await manager.setTokens(first)
        store.isFull.withLock { $0 = true }
        let second = TokenPair(accessToken: makeJWT(expiresAt: clock.now.addingTimeInterval(3600), subject: "b"), refreshToken: "refresh-b")
        await #expect(throws: EngageError.self) { try await manager.setTokens(second) }
        #expect(try await manager.currentTokens() == first)
        #expect(try store.load() == first)
    }

    /// A login that cannot be saved while a refresh of the current session is in flight: the refresh's
    /// rotated tokens (the only valid ones once the server rotated) are kept, not thrown away as if the
    /// session had changed.
    @Test func aFailedLoginDuringARefreshKeepsTheRotatedTokens() async throws {
        let store = FullDiskTokenStore()
        let gate = TestGate()
        let rotated = TokenPair(
            accessToken: makeJWT(expiresAt: clock.now.addingTimeInterval(3600), subject: "rotated"), refreshToken: "refresh-rotated")
        let manager = TokenManager(
            providerID: "test",
            refresher: ClosureTokenRefresher { _ in
                await gate.wait()
                return rotated
            }, store: store, clock: clock)
        try await manager.setTokens(
            TokenPair(accessToken: makeJWT(expiresAt: clock.now.addingTimeInterval(-10), subject: "old"), refreshToken: "refresh-old"))
        let refresh = Task { try await manager.validAccessToken() }
        #expect(await waitUntil { await manager.refreshCount == 1 })
        store.isFull.withLock { $0 = true }
        let login = TokenPair(accessToken: makeJWT(expiresAt: clock.now.addingTimeInterval(3600), subject: "b"), refreshToken: "refresh-b")
        await #expect(throws: EngageError.self) { try await manager.setTokens(login) }
        store.isFull.withLock { $0 = false }
        gate.open()
        #expect(try await refresh.value == rotated.accessToken)
        #expect(try await manager.currentTokens()?.refreshToken == "refresh-rotated")
        #expect(try store.load()?.refreshToken == "refresh-rotated")
    }
}
