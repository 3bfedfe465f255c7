@_spi(EngageProvider) @testable import EngageCore
import Foundation
import EngageTestTraits
import Testing

/// `EngageError` as Foundation sees it: `localizedDescription`, `NSError` domain and codes, user info
/// without secrets, and the code table that keeps numbers stable.
@Suite("EngageError bridges to LocalizedError and NSError", .bounded)
struct ErrorBridgingTests {
    /// The repository's root: this file is in Development/Tests/<target>/.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("localizedDescription is a short sentence for the user; the message, its meaning and the suggestion are the developer's")
    func localized() {
        let error: any Error = EngageError(
            .network, "Crobox could not be reached.", providerID: "crobox", isRetryable: true,
            recoverySuggestion: "Check the connection and try again.")
        #expect(error.localizedDescription == "You appear to be offline. Check your connection and try again.")
        let localized = error as? any LocalizedError
        #expect(localized?.failureReason == "Crobox could not be reached.")
        #expect(localized?.recoverySuggestion == "Check the connection and try again.")
        #expect(String(reflecting: error).contains("Meaning: The request could not reach the server, or the connection failed."))
        let http = EngageError.http(status: 403, providerID: "warply")
        #expect(http.localizedDescription == "Something went wrong. Please try again later.")
        #expect(http.failureReason == http.message)
        #expect(String(reflecting: http).contains("The server answered with an HTTP status the call does not accept."))
    }

    @Test("each kind of failure reads as its own sentence: by code, by HTTP status, and for a provider's own code by retryability")
    func userMessages() {
        let cases: [(EngageError, EngageError.UserMessage)] = [
            (EngageError(.network, "x"), .offline), (EngageError(.timeout, "x"), .timeout),
            (EngageError(.sessionExpired, "x"), .signInAgain), (EngageError(.unauthorized, "x"), .signInAgain),
            (EngageError(.invalidInput, "x"), .invalidInput), (EngageError(.circuitOpen, "x"), .busy),
            (EngageError.http(status: 429), .busy), (EngageError.http(status: 503), .busy), (EngageError.http(status: 500), .unavailable),
            (EngageError.http(status: 404), .general), (EngageError(.decoding, "x"), .unreadableAnswer),
            (EngageError(.graphQL, "x"), .unreadableAnswer), (EngageError(.storage, "x"), .storage), (EngageError(.crypto, "x"), .storage),
            (EngageError(.cancelled, "x"), .cancelled), (EngageError(.invalidConfiguration, "x"), .general),
            (EngageError(.internal, "x"), .general), (EngageError(.providerStartFailed, "x"), .unavailable),
            (EngageError("acme.soldOut", "x"), .general), (EngageError("acme.overloaded", "x", isRetryable: true), .unavailable),
            (EngageError("acme.broken", "x", httpStatus: 502), .unavailable),
        ]
        for (error, expected) in cases {
            #expect(error.userMessage == expected, "\(error.code) \(error.httpStatus.map(String.init) ?? "")")
            #expect(error.localizedDescription == expected.english)
            #expect(!error.localizedDescription.contains(error.message) || error.message.count < 2)
        }
    }

    @Test("the strings tables: English is the code's text, and German and Greek have every key, each a different text")
    func stringsTables() throws {
        let resources = Self.root.appendingPathComponent("Sources/EngageCore/Resources")
        func table(_ language: String) throws -> [String: String] {
            let data = try Data(contentsOf: resources.appendingPathComponent("\(language).lproj/EngageErrors.strings"))
            return try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: String], "\(language)")
        }
        let english = try table("en")
        #expect(english == Dictionary(uniqueKeysWithValues: EngageError.UserMessage.allCases.map { ($0.rawValue, $0.english) }))
        for language in ["de", "el"] {
            let translated = try table(language)
            #expect(Set(translated.keys) == Set(english.keys), "\(language) has other keys than English")
            for (key, text) in translated {
                #expect(!text.isEmpty && text != english[key], "\(language) \(key) is not translated")
            }
        }
        // The built resource bundle carries the tables, and an unknown language reads as English.
        let bundle = try #require(EngageError.UserMessage.bundle, "EngageCore's resource bundle is found beside the test runner")
        for language in ["en", "de", "el"] {
            #expect(
                bundle.path(forResource: "EngageErrors", ofType: "strings", inDirectory: nil, forLocalization: language) != nil,
                "\(language)")
        }
        #expect(EngageError.UserMessage.offline.localized == EngageError.UserMessage.offline.english)
    }

    @Test("an NSError has one domain and each code its own number; the user info carries the context")
    func nsError() {
        let network = EngageError(.network, "offline", providerID: "crobox", isRetryable: true) as NSError
        let decoding = EngageError(.decoding, "bad") as NSError
        #expect(network.domain == "EngageKit.EngageError")
        #expect(decoding.domain == network.domain)
        #expect(network.code == 8)
        #expect(decoding.code == 12)
        #expect(network.localizedDescription == EngageError.UserMessage.offline.english)
        #expect(network.userInfo[NSLocalizedFailureReasonErrorKey] as? String == "offline")
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
        #expect(String(reflecting: EngageError(first, "x")).contains("Meaning: The first test failure."))
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
        #expect(!String(reflecting: EngageError(code, "expired")).contains("Meaning:"))
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
