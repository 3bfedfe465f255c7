@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import EngageTestTraits
import Testing

@Suite("CircuitBreaker", .bounded)
struct CircuitBreakerTests {
    @Test("closed → open after the threshold → half-open after the cooldown → closed on success")
    func fullCycle() throws {
        let clock = FakeClock()
        let breaker = CircuitBreaker(policy: .init(failureThreshold: 3, cooldown: .seconds(300)), clock: clock)
        #expect(breaker.state == .closed(consecutiveFailures: 0))
        for expected in 1...2 {
            try breaker.acquirePermission()
            breaker.recordFailure()
            #expect(breaker.state == .closed(consecutiveFailures: expected))
        }
        try breaker.acquirePermission()
        breaker.recordFailure()
        #expect(breaker.state == .open(until: clock.now.addingTimeInterval(300)))
        #expect(try throwsCode(.circuitOpen) { try breaker.acquirePermission() })

        clock.advance(by: .seconds(299))
        #expect(try throwsCode(.circuitOpen) { try breaker.acquirePermission() })
        clock.advance(by: .seconds(1))
        #expect(breaker.state == .halfOpen)
        try breaker.acquirePermission()
        // Only one trial call at a time while half-open.
        #expect(try throwsCode(.circuitOpen) { try breaker.acquirePermission() })
        breaker.recordSuccess()
        #expect(breaker.state == .closed(consecutiveFailures: 0))
        try breaker.acquirePermission()
    }

    @Test("a failed trial call reopens the breaker for a full cooldown")
    func halfOpenFailureReopens() throws {
        let clock = FakeClock()
        let breaker = CircuitBreaker(policy: .init(failureThreshold: 1, cooldown: .seconds(10)), clock: clock)
        breaker.recordFailure()
        clock.advance(by: .seconds(10))
        try breaker.acquirePermission()
        breaker.recordFailure()
        #expect(breaker.state == .open(until: clock.now.addingTimeInterval(10)))
        clock.advance(by: .seconds(9))
        #expect(try throwsCode(.circuitOpen) { try breaker.acquirePermission() })
    }

    @Test("a success resets the failure count")
    func successResets() throws {
        let breaker = CircuitBreaker(policy: .init(failureThreshold: 2, cooldown: .seconds(10)), clock: FakeClock())
        breaker.recordFailure()
        breaker.recordSuccess()
        breaker.recordFailure()
        #expect(breaker.state == .closed(consecutiveFailures: 1))
    }

    @Test("the open error says it is retryable and when")
    func openErrorContext() {
        let breaker = CircuitBreaker(policy: .init(failureThreshold: 1, cooldown: .seconds(42)), clock: FakeClock())
        breaker.recordFailure()
        #expect {
            try breaker.acquirePermission(providerID: "warply")
        } throws: { error in
            let error = error as? EngageError
            return error?.code == .circuitOpen && error?.isRetryable == true && error?.providerID == "warply"
                && error?.message.contains("42 s") == true
        }
    }

    @Test("a wall clock set back never keeps the breaker open past its cooldown; set forward, the cooldown is over")
    func clockJumps() throws {
        let clock = FakeClock()
        let breaker = CircuitBreaker(policy: .init(failureThreshold: 1, cooldown: .seconds(300)), clock: clock)
        breaker.recordFailure()
        // The user sets the clock back a day: an end of cooldown beyond a whole cooldown from now means
        // the clock moved, not that a day of cooldown is left.
        clock.set(to: clock.now.addingTimeInterval(-86_400))
        #expect(breaker.state == .halfOpen)
        try breaker.acquirePermission()
        breaker.recordFailure()
        #expect(try throwsCode(.circuitOpen) { try breaker.acquirePermission() }, "a failed trial opens it again, for one cooldown")
        // Forward a year: the cooldown is long over.
        clock.set(to: clock.now.addingTimeInterval(365 * 86_400))
        try breaker.acquirePermission()
        breaker.recordSuccess()
        #expect(breaker.state == .closed(consecutiveFailures: 0))
    }

    @Test("a token's expiry follows the clock both ways: set forward it is refreshed once, set back it is used until the server refuses it")
    func tokenExpiryClockJumps() async throws {
        let clock = FakeClock()
        let refreshes = TestCounter()
        let manager = TokenManager(
            providerID: "test",
            refresher: ClosureTokenRefresher { _ in
                let count = refreshes.increment()
                return TokenPair(
                    accessToken: "access-\(count)", refreshToken: "refresh-\(count)", expiresAt: clock.now.addingTimeInterval(3_600))
            },
            clock: clock
        )
        try await manager.setTokens(
            TokenPair(accessToken: "access-0", refreshToken: "refresh-0", expiresAt: clock.now.addingTimeInterval(3_600)))
        // Forward a day: the token has expired; concurrent callers share one refresh.
        clock.set(to: clock.now.addingTimeInterval(86_400))
        async let first = manager.validAccessToken()
        async let second = manager.validAccessToken()
        #expect(try await [first, second] == ["access-1", "access-1"])
        #expect(refreshes.count == 1)
        // Back two days: the token looks fresh on this clock; it is used, and nothing is refreshed.
        clock.set(to: clock.now.addingTimeInterval(-2 * 86_400))
        #expect(try await manager.validAccessToken() == "access-1")
        #expect(refreshes.count == 1)
    }
}
