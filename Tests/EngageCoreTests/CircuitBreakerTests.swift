import EngageCore
import EngageTesting
import Foundation
import Testing

@Suite("CircuitBreaker")
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
}
