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

    @Test("the core's numbers are distinct and are the checked-in list's numbers below 1000 (numbers never change)")
    func stableCoreTable() throws {
        let numbers = EngageError.Code.coreTable.values.map(\.number)
        #expect(Set(numbers).count == numbers.count, "two codes share a number")
        #expect(numbers.allSatisfy { (1..<1000).contains($0) })
        let listed = try String(contentsOf: Self.root.appendingPathComponent("api/error-codes.txt"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
            .filter { Int($0.prefix { $0 != " " }).map { $0 < 1000 } ?? true }
        let table = EngageError.Code.coreTable.sorted { $0.value.number < $1.value.number }.map { "\($0.value.number) \($0.key)" }
        #expect(table == listed, "api/error-codes.txt and EngageError.Code.coreTable differ: append new codes to both, never renumber")
        let documented = try String(contentsOf: Self.root.appendingPathComponent("docs/errors.md"), encoding: .utf8)
        for (code, entry) in EngageError.Code.coreTable {
            #expect(documented.contains("| \(entry.number) | `\(code)` |"), "docs/errors.md does not list \(code)")
        }
    }

    @Test("a provider's registered codes get their numbers and summaries; clashing numbers are refused, registering nothing")
    func registration() throws {
        // Codes of this test only (the registered table is shared by the whole process).
        let first: EngageError.Code = "registrationTest.first"
        let second: EngageError.Code = "registrationTest.second"
        let hashed = first.number
        #expect(hashed >= 100_000)
        try EngageError.Code.register([
            .init(first, number: 990_001, summary: "The first test failure."), .init(second, number: 990_002, summary: "The second."),
        ])
        #expect(first.number == 990_001 && (EngageError(first, "x") as NSError).code == 990_001)
        #expect(EngageError(first, "x").failureReason == "The first test failure.")
        // The same again changes nothing.
        try EngageError.Code.register([.init(first, number: 990_001, summary: "The first test failure.")])
        let third: EngageError.Code = "registrationTest.third"
        for clash in [
            [EngageError.Code.Entry(third, number: 990_002, summary: "taken")],  // another code's number
            [EngageError.Code.Entry(first, number: 990_003, summary: "renumbered")],  // a code renumbered
            [EngageError.Code.Entry(third, number: 17, summary: "the core's")],  // below 1000
            [EngageError.Code.Entry(.network, number: 990_004, summary: "a core code")],
            [
                EngageError.Code.Entry(third, number: 990_005, summary: "fine"),
                EngageError.Code.Entry("registrationTest.fourth", number: 990_005, summary: "twice in one list"),
            ],
        ] {
            let error = #expect(throws: EngageError.self) { try EngageError.Code.register(clash) }
            #expect(error?.code == .invalidConfiguration)
        }
        #expect(third.number != 990_005 && first.number == 990_001 && EngageError.Code.network.number == 8)
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
