@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import EngageTestTraits
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Secrets never leave through reflection: `dump`, `String(reflecting:)` and `Mirror` show what
/// `description` shows.
@Suite("Secrets through reflection", .bounded)
struct SecretReflectionTests {
    private func reflected(_ value: Any) -> String {
        var dumped = ""
        dump(value, to: &dumped)
        let children = Mirror(reflecting: value).children.map { "\($0.label ?? ""): \($0.value)" }.joined(separator: "\n")
        return [dumped, String(reflecting: value), "\(value)", children].joined(separator: "\n")
    }

    @Test("a UserIdentity shows its user id and attribute names, never the e-mail or attribute values")
    func userIdentity() {
        let identity = UserIdentity(userID: "u-42", email: "eva@example.com", attributes: ["reference.password": "hunter2-secret"])
        let text = reflected(identity)
        #expect(text.contains("u-42"))
        #expect(text.contains("reference.password"))
        #expect(!text.contains("eva@example.com"), "\(text)")
        #expect(!text.contains("hunter2-secret"), "\(text)")
    }

    @Test("an EngageError wrapping a URLError does not show the URL's query through reflection")
    func errorWrappingAURLError() throws {
        let url = try #require(URL(string: "https://api.example.com/v1/items?access_token=tok-SECRET-1234&email=eva%40example.com"))
        let urlError = URLError(.notConnectedToInternet, userInfo: [NSURLErrorFailingURLErrorKey: url])
        let error = EngageError.wrapping(urlError, providerID: "reference")
        let text = reflected(error)
        #expect(text.contains("network"))
        #expect(!text.contains("tok-SECRET-1234"), "\(text)")
        #expect(!text.contains("eva%40example.com") && !text.contains("eva@example.com"), "\(text)")
    }

    @Test("a token manager holding a refreshed token that arrived expired does not show it through reflection")
    func tokenManagerAfterAnExpiredArrival() async throws {
        let clock = FakeClock()
        let arrivedExpired = "hdr.\(Base64URL.encode(Data(#"{"exp":\#(Int(clock.now.timeIntervalSince1970) - 3600)}"#.utf8))).sig-SECRET"
        let manager = TokenManager(
            providerID: "test", refresher: ClosureTokenRefresher { _ in TokenPair(accessToken: arrivedExpired, refreshToken: "r2") },
            clock: clock)
        try await manager.setTokens(
            TokenPair(accessToken: "expired-SECRET", refreshToken: "r1", expiresAt: clock.now.addingTimeInterval(-10)))
        #expect(try await manager.validAccessToken() == arrivedExpired)
        let text = reflected(manager)
        #expect(!text.contains("sig-SECRET"), "\(text)")
        #expect(!text.contains("expired-SECRET"), "\(text)")
    }

    @Test("a host-token authorizer that refreshed once does not show either token through reflection")
    func hostTokenAuthorizerAfterARefresh() async throws {
        let host = FakeHostSession(token: "host-SECRET-0")
        let authorizer = HostTokenAuthorizer(provider: host, clock: FakeClock())
        var request = HTTPRequestMessage.get("/me")
        try await authorizer.authorize(&request)
        #expect(try await authorizer.renew(after: .unauthorized(request)))
        let text = reflected(authorizer)
        #expect(!text.contains("host-SECRET-0"), "\(text)")
        #expect(!text.contains("host-1"), "\(text)")
    }
}
