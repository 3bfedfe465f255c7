@_spi(EngageProvider) import EngageCore
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Secrets never leave through reflection: `dump`, `String(reflecting:)` and `Mirror` show what
/// `description` shows.
@Suite("Secrets through reflection")
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
}
