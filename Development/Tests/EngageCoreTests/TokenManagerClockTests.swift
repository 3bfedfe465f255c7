@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import EngageTestTraits
import Testing

/// A JWT issued at `issuedAt` (on the issuer's clock), valid for `lifetime` seconds.
private func makeJWT(issuedAt: Date, lifetime: TimeInterval, subject: String) -> String {
    let header = Base64URL.encode(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
    let iat = Int(issuedAt.timeIntervalSince1970)
    let payload = Base64URL.encode(Data(#"{"sub":"\#(subject)","iat":\#(iat),"exp":\#(iat + Int(lifetime))}"#.utf8))
    return "\(header).\(payload).c2lnbmF0dXJl"
}

/// A device whose clock is off from the issuer's: expiry is judged on the device's clock corrected by
/// the skew the tokens show, so a session refreshes once per token lifetime, not on every call.
@Suite("Token manager: a wrong device clock", .bounded)
struct TokenManagerClockTests {
    /// Two hours of calls every five minutes with one-hour tokens, the device `offset` from the issuer;
    /// returns how many refreshes were made.
    private func refreshes(deviceAheadBy offset: TimeInterval) async throws -> Int {
        let clock = FakeClock()
        let issued = Locked(0)
        let issue: @Sendable () -> TokenPair = {
            let serial = issued.withLock { count -> Int in
                count += 1
                return count
            }
            let serverNow = clock.now.addingTimeInterval(-offset)
            return TokenPair(accessToken: makeJWT(issuedAt: serverNow, lifetime: 3600, subject: "t\(serial)"), refreshToken: "r\(serial)")
        }
        let manager = TokenManager(providerID: "test", refresher: ClosureTokenRefresher { _ in issue() }, clock: clock)
        try await manager.setTokens(issue())
        for _ in 0..<24 {
            for _ in 0..<3 { _ = try await manager.validAccessToken() }
            clock.advance(by: .seconds(300))
        }
        return await manager.refreshCount
    }

    @Test("a clock two hours ahead refreshes once per token lifetime, not on every call")
    func clockAhead() async throws {
        #expect(try await refreshes(deviceAheadBy: 7200) == 2)
    }

    @Test("a clock two hours behind still refreshes before each token expires")
    func clockBehind() async throws {
        #expect(try await refreshes(deviceAheadBy: -7200) == 2)
    }

    @Test("a right clock refreshes once per lifetime too")
    func rightClock() async throws {
        #expect(try await refreshes(deviceAheadBy: 0) == 2)
    }

    /// A refreshed token without `iat` that looks expired the moment it arrives (the clock is ahead):
    /// used until the server refuses it, never refreshed again for its expiry.
    @Test func aRefreshedTokenThatArrivesExpiredIsNotRefreshedAgain() async throws {
        let clock = FakeClock()
        let manager = TokenManager(
            providerID: "test",
            refresher: ClosureTokenRefresher { _ in
                TokenPair(
                    accessToken: "header.\(Base64URL.encode(Data(#"{"exp":\#(Int(clock.now.timeIntervalSince1970) - 3600)}"#.utf8))).sig",
                    refreshToken: "r2")
            },
            clock: clock
        )
        try await manager.setTokens(TokenPair(accessToken: "expired", refreshToken: "r1", expiresAt: clock.now.addingTimeInterval(-10)))
        let first = try await manager.validAccessToken()
        for _ in 0..<10 { #expect(try await manager.validAccessToken() == first) }
        #expect(await manager.refreshCount == 1)
        // The server's refusal still renews it.
        _ = try await manager.accessTokenAfterUnauthorized(failedAccessToken: try #require(first))
        #expect(await manager.refreshCount == 2)
    }

    @Test func theSkewIsReadOnlyWhereThePairProvesIt() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        func pair(issued: TimeInterval, received: TimeInterval) -> TokenPair {
            var pair = TokenPair(
                accessToken: "a", expiresAt: now.addingTimeInterval(issued + 3600), issuedAt: now.addingTimeInterval(issued))
            pair.receivedAt = now.addingTimeInterval(received)
            return pair
        }
        #expect(pair(issued: 0, received: 7200).clockSkew == 7200)  // received after it expired: ahead
        #expect(pair(issued: 7200, received: 0).clockSkew == -7200)  // received before it was issued: behind
        #expect(pair(issued: 0, received: 1800).clockSkew == 0)  // an older token, or a skew: cannot tell
        #expect(pair(issued: 30, received: 0).clockSkew == 0)  // within a minute: no correction
        #expect(TokenPair(accessToken: "a", expiresAt: now).clockSkew == 0)
    }
}
