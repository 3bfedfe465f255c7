@_spi(EngageProvider) import EngageCore
import Foundation
import EngageTestTraits
import Testing

/// `EngageError` as Foundation sees it: `localizedDescription`, `NSError` domain and codes, user info
/// without secrets, and the code table that keeps numbers stable.
@Suite("EngageError bridges to LocalizedError and NSError", .bounded)
struct ErrorBridgingTests {
    /// The repository's root, from this file's path (Tests/EngageCoreTests/…).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("localizedDescription is the message; failure reason and suggestion reach LocalizedError's readers")
    func localized() {
        let error: any Error = EngageError(
            .network, "Crobox could not be reached.", providerID: "crobox", isRetryable: true,
            recoverySuggestion: "Check the connection and try again.")
        #expect(error.localizedDescription == "Crobox could not be reached.")
        let localized = error as? any LocalizedError
        #expect(localized?.failureReason == "The request could not reach the server, or the connection failed.")
        #expect(localized?.recoverySuggestion == "Check the connection and try again.")
        let http = EngageError.http(status: 403, providerID: "warply")
        #expect(http.failureReason == "The server answered with an HTTP status the call does not accept. (HTTP 403)")
    }

    @Test("an NSError has one domain and each code its own number; the user info carries the context")
    func nsError() {
        let network = EngageError(.network, "offline", providerID: "crobox", isRetryable: true) as NSError
        let decoding = EngageError(.decoding, "bad") as NSError
        #expect(network.domain == "EngageKit.EngageError")
        #expect(decoding.domain == network.domain)
        #expect(network.code == 8)
        #expect(decoding.code == 12)
        #expect(network.localizedDescription == "offline")
        #expect(network.userInfo["EngageErrorCode"] as? String == "network")
        #expect(network.userInfo["EngageProviderID"] as? String == "crobox")
        #expect(network.userInfo["EngageRetryable"] as? Bool == true)
        let limited = EngageError.http(status: 429, providerID: "youll").withRetryAfter(.milliseconds(1_500)) as NSError
        #expect(limited.userInfo["EngageHTTPStatus"] as? Int == 429)
        #expect(limited.userInfo["EngageRetryAfterSeconds"] as? Double == 1.5)
    }

    @Test("the user info never carries the underlying error, which may quote a secret")
    func noSecrets() {
        let leaky = URLError(
            .badServerResponse, userInfo: [NSURLErrorFailingURLErrorKey: URL(string: "https://x.example/?token=s3cr3t-value") as Any])
        let error = EngageError(.network, "The request failed.", underlyingError: leaky) as NSError
        let text = error.userInfo.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        #expect(!text.contains("s3cr3t-value"))
        #expect(error.userInfo[NSUnderlyingErrorKey] == nil)
    }

    @Test("numbers are distinct, and the table is the checked-in list (numbers never change)")
    func stableTable() throws {
        let numbers = EngageError.Code.table.values.map(\.number)
        #expect(Set(numbers).count == numbers.count, "two codes share a number")
        let listed = try String(contentsOf: Self.root.appendingPathComponent("api/error-codes.txt"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
        let table = EngageError.Code.table.sorted { $0.value.number < $1.value.number }.map { "\($0.value.number) \($0.key)" }
        #expect(table == listed, "api/error-codes.txt and EngageError.Code.table differ: append new codes to both, never renumber")
        let documented = try String(contentsOf: Self.root.appendingPathComponent("docs/errors.md"), encoding: .utf8)
        for (code, entry) in EngageError.Code.table {
            #expect(documented.contains("| \(entry.number) | `\(code)` |"), "docs/errors.md does not list \(code)")
        }
        #expect(EngageError.Code.warplyCouponNotRedeemableNumber == EngageError.Code(rawValue: "warply.couponNotRedeemable").number)
    }

    @Test("every code EngageKit declares is in the table")
    func everyDeclaredCodeNumbered() throws {
        let pattern = try Regex(#"static let `?[A-Za-z]+`?: (?:Self|EngageError\.Code) = "([^"]+)""#)
        var declared = Set<String>()
        for folder in ["Sources", "Providers"] {
            let enumerator = FileManager.default.enumerator(at: Self.root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                guard url.pathExtension == "swift", !url.path.contains("/Tests/"), !url.path.contains("/Emulator/") else { continue }
                // Declarations only: doc comments show example codes.
                let text = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
                    .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
                // Only codes: other string-backed constants (offer kinds, capabilities) live in other extensions.
                for block in text.split(separator: "extension EngageError.Code").dropFirst() {
                    let body = block.prefix { $0 != "}" }
                    for match in body.matches(of: pattern) {
                        if let name = match.output[1].substring { declared.insert(String(name)) }
                    }
                }
            }
        }
        #expect(declared.count >= 40)
        let missing = declared.subtracting(EngageError.Code.table.keys)
        #expect(missing.isEmpty, "codes without a number: \(missing.sorted())")
    }

    @Test("a code outside the table (a third-party provider's) has a number from its text, the same every time")
    func thirdPartyNumber() {
        let code: EngageError.Code = "acme.dealExpired"
        #expect(code.number == 532_954)
        #expect((EngageError(code, "expired") as NSError).code == 532_954)
        #expect(EngageError(code, "expired").failureReason == nil)
    }

    @Test("messages tell the developer what to do: a 403, a configuration that does not decode, an answer of another shape")
    func actionableSuggestions() throws {
        #expect(EngageError.http(status: 403).recoverySuggestion?.contains("permission") == true)
        #expect(EngageError.http(status: 404).recoverySuggestion?.contains("base URL") == true)
        #expect(EngageError.http(status: 503).isRetryable)
        struct Section: Decodable { var containerID: String }
        let typeMismatch = try #require(throws: DecodingError.self) {
            try JSONDecoder().decode(Section.self, from: Data(#"{"containerID": 5}"#.utf8))
        }
        let configuration = EngageError(
            decodingError: typeMismatch, providerID: "crobox", what: "'crobox' configuration", code: .invalidConfiguration)
        #expect(configuration.message.contains("containerID"))
        #expect(configuration.recoverySuggestion?.contains("server") == false)
        #expect(configuration.recoverySuggestion?.contains("Correct the setting") == true)
        let answer = EngageError(decodingError: typeMismatch, providerID: "crobox")
        #expect(answer.recoverySuggestion?.contains("base URL") == true)
    }
}

extension EngageError.Code {
    /// The number the list gives Warply's coupon code, spelled out so a renumbering fails here too.
    fileprivate static let warplyCouponNotRedeemableNumber = 1003
}
