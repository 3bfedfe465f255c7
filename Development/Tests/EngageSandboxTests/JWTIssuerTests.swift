@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import EngageTestTraits
import Testing

@Suite("JWT issuer", .bounded)
struct JWTIssuerTests {
    let clock = TestClock()

    func makeIssuer(secret: String = "s3cret", seed: UInt64 = 1) -> JWTIssuer {
        JWTIssuer(secret: secret, issuer: "test-issuer", defaultLifetime: .seconds(60), seed: seed, now: clock.provider)
    }

    @Test("issues HS256 tokens whose claims verify")
    func roundTrip() throws {
        let issuer = makeIssuer()
        let token = issuer.issue(subject: "alice", extraClaims: ["scope": "items", "sub": "ignored"])
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        #expect(segments.count == 3)
        #expect(!token.contains("="))
        #expect(!token.contains("+") && !token.contains("/"))

        let claims = try issuer.verify(token)
        #expect(claims.issuer == "test-issuer")
        #expect(claims.subject == "alice")
        #expect(claims.issuedAt == clock.now)
        #expect(claims.expiresAt == clock.now.addingTimeInterval(60))
        #expect(claims.extraClaims == ["scope": "items"])
        #expect(claims.tokenID.count == 32)
    }

    @Test("every token gets a unique jti, and the sequence is reproducible from the seed")
    func uniqueTokenIDs() throws {
        let issuer = makeIssuer()
        let ids = try (0..<20).map { _ in try issuer.verify(issuer.issue(subject: "a")).tokenID }
        #expect(Set(ids).count == 20)
        let again = makeIssuer()
        #expect(try again.verify(again.issue(subject: "a")).tokenID == ids[0])
    }

    @Test("an explicit lifetime overrides the default")
    func explicitLifetime() throws {
        let issuer = makeIssuer()
        let claims = try issuer.verify(issuer.issue(subject: "a", lifetime: .seconds(5)))
        #expect(claims.expiresAt.timeIntervalSince(claims.issuedAt) == 5)
    }

    @Test("a token is rejected as expired once the injected clock reaches exp")
    func expiry() throws {
        let issuer = makeIssuer()
        let token = issuer.issue(subject: "a", lifetime: .seconds(10))
        clock.advance(by: 9)
        #expect(throws: Never.self) { try issuer.verify(token) }
        clock.advance(by: 1)
        #expect(throws: JWTVerificationError.expired) { try issuer.verify(token) }
    }

    @Test("a tampered payload, a foreign secret or a bad signature fail the signature check")
    func tampering() throws {
        let issuer = makeIssuer()
        let token = issuer.issue(subject: "alice")
        let segments = token.split(separator: ".").map(String.init)

        let forgedPayload = Data(#"{"exp":9999999999,"iat":0,"iss":"test-issuer","jti":"x","sub":"mallory"}"#.utf8)
            .base64EncodedString()
            .replacingOccurrences(of: "=", with: "")
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
        #expect(throws: JWTVerificationError.badSignature) {
            try issuer.verify([segments[0], forgedPayload, segments[2]].joined(separator: "."))
        }
        #expect(throws: JWTVerificationError.badSignature) {
            try makeIssuer(secret: "other").verify(token)
        }
        var signature = Array(segments[2])
        signature[0] = signature[0] == "A" ? "B" : "A"
        #expect(throws: JWTVerificationError.badSignature) {
            try issuer.verify([segments[0], segments[1], String(signature)].joined(separator: "."))
        }
    }

    @Test("malformed tokens are rejected", arguments: ["", "a.b", "a.b.c.d", "not a token", "e30.e30.e30"])
    func malformed(token: String) {
        #expect(throws: JWTVerificationError.malformed) { try makeIssuer().verify(token) }
    }

    @Test("EngageCore's client-side JWT decoding reads the expiry the emulator wrote")
    func coreInterop() throws {
        let issuer = makeIssuer()
        let token = issuer.issue(subject: "alice", lifetime: .seconds(120))
        let decoded = try JWTClaims(decoding: token)
        #expect(decoded.expiresAt == clock.now.addingTimeInterval(120))
        #expect(decoded.subject == "alice")
        #expect(decoded.issuer == "test-issuer")
    }
}
