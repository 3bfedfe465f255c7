import Engage
import EngageTestTraits
import Foundation
import Testing

/// What an app sees of a value that holds secrets, through `import Engage` alone (no SPI): the types
/// conform to `SecretBearing` in provider-author extensions, and the conformance still decides how
/// `print`, `String(reflecting:)`, `dump` and `Mirror` show them, since it exists at run time.
@Suite("Secrets stay redacted on the app's surface, without the SPI", .bounded)
struct SecretsRedactedTests {
    /// Every way an app's code or a logger looks at `value`, as text.
    static func everyView(of value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        let children = Mirror(reflecting: value).children.map { "\($0.label ?? "") \($0.value)" }
        return [String(describing: value), String(reflecting: value), "\(value)", dumped] + children
    }

    @Test("a user identity shows neither its e-mail nor its attributes' values")
    func identity() {
        let identity = UserIdentity(userID: "u-1", email: "ana@example.com", attributes: ["warply.password": "hunter2"])
        for view in Self.everyView(of: identity) {
            #expect(!view.contains("ana@example.com") && !view.contains("hunter2"), "\(view)")
        }
        #expect(String(reflecting: identity).contains("u-1"))
    }

    @Test("a configuration shows no secret of its provider sections")
    func configuration() throws {
        let json = Data(
            #"""
            {"appID": "com.example.shop", "providers": {"crobox": {"containerID": "xlrc9t", "apiKey": "k-7f3c9a"},
             "acme": {"partner": {"username": "shop", "password": "hunter2"}, "contact": "ana@example.com"}}}
            """#.utf8)
        let configuration = try EngageConfiguration.load(json: json)
        for view in Self.everyView(of: configuration) {
            #expect(!view.contains("k-7f3c9a") && !view.contains("hunter2") && !view.contains("ana@example.com"), "\(view)")
        }
        #expect(String(reflecting: configuration).contains("xlrc9t"))
    }
}
