@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageWarply
import Foundation
import EngageTestTraits
import Testing

// Unit tests of `WarplyConfiguration` and `WarplyEnvironment`: the presets (seed section 10 and the
// table on `preset(_:appUUID:merchantID:)`), validation, JSON, and registration in
// `EngageConfiguration`.

private let appUUID = "f83dfde1145e4c2da69793abb2f579af"

private func decodeConfiguration(_ json: String) throws -> WarplyConfiguration {
    try JSONDecoder().decode(WarplyConfiguration.self, from: Data(json.utf8))
}

private func decodeEnvironment(_ json: String) throws -> WarplyEnvironment {
    try JSONDecoder().decode(WarplyEnvironment.self, from: Data(json.utf8))
}

/// The JSON object a value encodes to.
private func jsonObject(_ value: some Encodable) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any])
}

/// A valid configuration with one change.
private func adjusted(_ change: (inout WarplyConfiguration) -> Void) -> WarplyConfiguration {
    var configuration = WarplyConfiguration.preset(.production, appUUID: appUUID)
    change(&configuration)
    return configuration
}

// MARK: - Presets

@Suite("WarplyConfiguration presets (unit)", .bounded)
struct WarplyConfigurationPresetUnitTests {
    struct Expected: Sendable, CustomTestStringConvertible {
        var preset: WarplyConfiguration.Preset
        var environment: WarplyEnvironment
        var timeout: Double
        var breakerThreshold: Int
        var breakerReset: Double
        var analytics: Bool
        var testDescription: String { preset.rawValue }
    }

    static let table: [Expected] = [
        Expected(preset: .development, environment: .development, timeout: 15, breakerThreshold: 5, breakerReset: 300, analytics: true),
        Expected(preset: .production, environment: .production, timeout: 30, breakerThreshold: 5, breakerReset: 300, analytics: true),
        Expected(preset: .testing, environment: .development, timeout: 5, breakerThreshold: 5, breakerReset: 300, analytics: false),
        Expected(preset: .highSecurity, environment: .production, timeout: 20, breakerThreshold: 3, breakerReset: 600, analytics: false),
    ]

    @Test("each preset has the documented values", arguments: table)
    func presetValues(expected: Expected) {
        let configuration = WarplyConfiguration.preset(expected.preset, appUUID: appUUID, merchantID: "merchant-7")
        #expect(configuration.appUUID == appUUID)
        #expect(configuration.merchantID == "merchant-7")
        #expect(configuration.environment == expected.environment)
        #expect(configuration.requestTimeoutSeconds == expected.timeout)
        // Presets without a breaker of their own use the registry's `auth` (5 failures / 300 s by default).
        let auth = configuration.auth ?? AuthSettings()
        #expect(auth.breakerFailureThreshold == expected.breakerThreshold)
        #expect(auth.breakerCooldownSeconds == expected.breakerReset)
        #expect(configuration.analyticsEnabled == expected.analytics)
        // Shared by every preset: the SDK's 5-minute proactive window.
        #expect(auth.proactiveRefreshSeconds == 300)
        #expect(configuration.language == .greek)
        #expect(configuration.bundleID == nil)
        #expect(configuration.deviceID == nil)
        #expect(configuration.partnerCredentials == nil)
        #expect(configuration.validationIssues().isEmpty)
    }

    @Test("the table covers every preset")
    func everyPresetCovered() {
        #expect(Set(Self.table.map(\.preset)) == Set(WarplyConfiguration.Preset.allCases))
        #expect(WarplyConfiguration.Preset.allCases.map(\.rawValue) == ["development", "production", "testing", "highSecurity"])
    }

    @Test("the initializer's defaults are production's, with the registry's timeout, attempts and log level (nil)")
    func initializerDefaults() {
        let configuration = WarplyConfiguration(appUUID: appUUID)
        var production = WarplyConfiguration.preset(.production, appUUID: appUUID)
        production.requestTimeoutSeconds = nil
        production.maxAttempts = nil
        production.logLevel = nil
        #expect(configuration == production)
        #expect(configuration.merchantID.isEmpty)
        #expect(configuration.auth == nil)
    }

    @Test("the presets agree with EngageConfiguration's presets on timeouts")
    func agreesWithEngagePresets() {
        let pairs: [(WarplyConfiguration.Preset, EngageConfiguration.Preset)] = [
            (.development, .development), (.production, .production), (.testing, .testing), (.highSecurity, .highSecurity),
        ]
        for (warply, engage) in pairs {
            #expect(
                WarplyConfiguration.preset(warply, appUUID: appUUID).requestTimeoutSeconds
                    == EngageConfiguration.preset(engage, appID: "org.example.app").network.timeoutSeconds
            )
        }
    }
}

// MARK: - Validation

@Suite("WarplyConfiguration validation (unit)", .bounded)
struct WarplyConfigurationValidationUnitTests {
    /// One invalid field: the configuration, the field name the issue must name, and its recovery text.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var configuration: WarplyConfiguration
        var field: String
        var recovery: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "appUUID not hex", configuration: adjusted { $0.appUUID = "zz3dfde1145e4c2da69793abb2f579af" }, field: "appUUID",
            recovery: "copy it from the Warply dashboard"),
        Case(
            name: "appUUID too short", configuration: adjusted { $0.appUUID = "f83dfde1145e4c2da69793abb2f579a" }, field: "appUUID",
            recovery: "32 hex digits"),
        Case(
            name: "appUUID too long", configuration: adjusted { $0.appUUID = appUUID + "0" }, field: "appUUID",
            recovery: "copy it from the Warply dashboard"),
        Case(
            name: "appUUID empty", configuration: adjusted { $0.appUUID = "" }, field: "appUUID",
            recovery: "copy it from the Warply dashboard"),
        Case(
            name: "appUUID misplaced dashes", configuration: adjusted { $0.appUUID = "f83dfde1-145e4c2da-69793abb2f579-af" },
            field: "appUUID", recovery: "copy it from the Warply dashboard"),
        Case(
            name: "merchantID too long", configuration: adjusted { $0.merchantID = String(repeating: "m", count: 129) },
            field: "merchantID", recovery: "at most 128 characters on one line"),
        Case(
            name: "merchantID multiline", configuration: adjusted { $0.merchantID = "m\nx" }, field: "merchantID",
            recovery: "at most 128 characters on one line"),
        Case(
            name: "environment relative URL", configuration: adjusted { $0.environment = .custom(URL(string: "relative/path")!) },
            field: "environment", recovery: "development, production or an absolute URL"),
        Case(
            name: "timeout zero", configuration: adjusted { $0.requestTimeoutSeconds = 0 }, field: "requestTimeoutSeconds",
            recovery: "the presets use 5 to 30"),
        Case(
            name: "timeout negative", configuration: adjusted { $0.requestTimeoutSeconds = -1 }, field: "requestTimeoutSeconds",
            recovery: "the presets use 5 to 30"),
        Case(
            name: "timeout too long", configuration: adjusted { $0.requestTimeoutSeconds = 300.5 }, field: "requestTimeoutSeconds",
            recovery: "the presets use 5 to 30"),
        Case(
            name: "timeout NaN", configuration: adjusted { $0.requestTimeoutSeconds = .nan }, field: "requestTimeoutSeconds",
            recovery: "the presets use 5 to 30"),
        Case(
            name: "timeout infinite", configuration: adjusted { $0.requestTimeoutSeconds = .infinity }, field: "requestTimeoutSeconds",
            recovery: "the presets use 5 to 30"),
        Case(name: "bundleID empty", configuration: adjusted { $0.bundleID = "" }, field: "bundleID", recovery: "e.g. gr.dei.loyalty"),
        Case(
            name: "bundleID with colon", configuration: adjusted { $0.bundleID = "ios:gr.dei" }, field: "bundleID",
            recovery: "without ':' or line breaks"),
        Case(
            name: "bundleID multiline", configuration: adjusted { $0.bundleID = "gr.dei\nloyalty" }, field: "bundleID",
            recovery: "e.g. gr.dei.loyalty"),
        Case(
            name: "bundleID too long", configuration: adjusted { $0.bundleID = String(repeating: "b", count: 256) }, field: "bundleID",
            recovery: "1 to 255 characters"),
        Case(name: "deviceID empty", configuration: adjusted { $0.deviceID = "" }, field: "deviceID", recovery: "or nil to generate one"),
        Case(
            name: "deviceID too long", configuration: adjusted { $0.deviceID = String(repeating: "d", count: 129) }, field: "deviceID",
            recovery: "or nil to generate one"),
        Case(
            name: "deviceID multiline", configuration: adjusted { $0.deviceID = "d\r\n" }, field: "deviceID",
            recovery: "or nil to generate one"),
        Case(
            name: "partner username empty", configuration: adjusted { $0.partnerCredentials = .init(username: "", password: "p") },
            field: "partnerCredentials.username", recovery: "must not be empty or contain ':'"),
        Case(
            name: "partner username with colon", configuration: adjusted { $0.partnerCredentials = .init(username: "a:b", password: "p") },
            field: "partnerCredentials.username", recovery: "must not be empty or contain ':'"),
        Case(
            name: "proactive window negative", configuration: adjusted { $0.auth = AuthSettings(proactiveRefreshSeconds: -1) },
            field: "auth.proactiveRefreshSeconds", recovery: "must be in [0, 86400]"),
        Case(
            name: "proactive window too long", configuration: adjusted { $0.auth = AuthSettings(proactiveRefreshSeconds: 86_401) },
            field: "auth.proactiveRefreshSeconds", recovery: "must be in [0, 86400]"),
        Case(
            name: "proactive window NaN", configuration: adjusted { $0.auth = AuthSettings(proactiveRefreshSeconds: .nan) },
            field: "auth.proactiveRefreshSeconds", recovery: "must be in [0, 86400]"),
        Case(
            name: "breaker threshold zero", configuration: adjusted { $0.auth = AuthSettings(breakerFailureThreshold: 0) },
            field: "auth.breakerFailureThreshold", recovery: "must be in 1...1000"),
        Case(
            name: "breaker cooldown zero", configuration: adjusted { $0.auth = AuthSettings(breakerCooldownSeconds: 0) },
            field: "auth.breakerCooldownSeconds", recovery: "must be in (0, 86400]"),
        Case(
            name: "breaker cooldown too long", configuration: adjusted { $0.auth = AuthSettings(breakerCooldownSeconds: 86_401) },
            field: "auth.breakerCooldownSeconds", recovery: "must be in (0, 86400]"),
    ]

    @Test("one invalid field gives exactly one issue naming it, with its recovery text", arguments: cases)
    func oneIssuePerField(invalid: Case) throws {
        let issues = invalid.configuration.validationIssues()
        #expect(issues.count == 1, "\(issues)")
        let issue = try #require(issues.first)
        #expect(issue.hasPrefix(invalid.field), "\(issue)")
        #expect(issue.contains(invalid.recovery), "\(issue)")
    }

    @Test("validate(for:) throws invalidConfiguration attributed to warply, listing the issues")
    func validateThrows() throws {
        let configuration = adjusted {
            $0.appUUID = "nope"
            $0.auth = AuthSettings(breakerFailureThreshold: 0)
        }
        #expect(configuration.validationIssues().count == 2)
        do {
            try configuration.validate(for: .warply)
            Issue.record("validate(for:) accepted an invalid configuration")
        } catch {
            #expect(error.code == .invalidConfiguration)
            #expect(error.providerID == .warply)
            #expect(error.message.contains("appUUID must be the 32 hex digits"))
            #expect(error.message.contains("auth.breakerFailureThreshold must be in 1...1000"))
            #expect(error.recoverySuggestion == "Fix the listed settings of the 'warply' provider.")
        }
    }

    @Test("every issue is reported at once")
    func issuesAccumulate() {
        let configuration = adjusted {
            $0.appUUID = "x"
            $0.merchantID = "a\nb"
            $0.environment = .custom(URL(string: "nohost")!)
            $0.requestTimeoutSeconds = 0
            $0.bundleID = ""
            $0.deviceID = ""
            $0.partnerCredentials = .init(username: "", password: "")
            $0.auth = AuthSettings(proactiveRefreshSeconds: -1, breakerFailureThreshold: 0, breakerCooldownSeconds: 0)
        }
        #expect(configuration.validationIssues().count == 10)
    }

    @Test(
        "valid appUUIDs: 32 hex digits in either case, or the dashed UUID form",
        arguments: [
            appUUID, appUUID.uppercased(), "F83DFDE1-145E-4C2D-A697-93ABB2F579AF", "f83dfde1-145e-4c2d-a697-93abb2f579af",
            String(repeating: "0", count: 32),
        ]
    )
    func validAppUUIDs(uuid: String) {
        #expect(adjusted { $0.appUUID = uuid }.validationIssues().isEmpty)
    }

    @Test("an appUUID of fullwidth hex digits is refused")
    func fullwidthAppUUIDRefused() {
        let fullwidth = String(repeating: "\u{FF10}", count: 32)
        #expect(!adjusted { $0.appUUID = fullwidth }.validationIssues().isEmpty)
    }

    @Test("the appUUID issue quotes at most 40 characters of the bad value")
    func appUUIDQuoteIsBounded() throws {
        let issue = try #require(adjusted { $0.appUUID = String(repeating: "q", count: 500) }.validationIssues().first)
        #expect(issue.contains("'" + String(repeating: "q", count: 40) + "'"))
        #expect(!issue.contains(String(repeating: "q", count: 41)))
    }

    @Test("boundary values are accepted")
    func boundariesAccepted() {
        let configuration = adjusted {
            $0.merchantID = String(repeating: "m", count: 128)
            $0.requestTimeoutSeconds = 300
            $0.bundleID = String(repeating: "b", count: 255)
            $0.deviceID = String(repeating: "d", count: 128)
            $0.partnerCredentials = .init(username: "u", password: "")
            $0.environment = .custom(URL(string: "http://127.0.0.1:8080")!)
            $0.auth = AuthSettings(proactiveRefreshSeconds: 0, breakerFailureThreshold: 1, breakerCooldownSeconds: 86_400)
        }
        #expect(configuration.validationIssues().isEmpty)
        #expect(
            adjusted { $0.auth = AuthSettings(proactiveRefreshSeconds: 86_400, breakerFailureThreshold: 100) }.validationIssues().isEmpty)
        #expect(adjusted { $0.requestTimeoutSeconds = 0.001 }.validationIssues().isEmpty)
        #expect(adjusted { $0.requestTimeoutSeconds = nil }.validationIssues().isEmpty)
    }
}

// MARK: - JSON

@Suite("WarplyConfiguration JSON (unit)", .bounded)
struct WarplyConfigurationJSONUnitTests {
    @Test("only appUUID is required; the rest takes the initializer's defaults")
    func minimalJSON() throws {
        #expect(try decodeConfiguration(#"{"appUUID":"\#(appUUID)"}"#) == WarplyConfiguration(appUUID: appUUID))
    }

    @Test("the example of the type's documentation decodes")
    func documentedExample() throws {
        let configuration = try decodeConfiguration(
            #"{ "appUUID": "f83dfde1145e4c2da69793abb2f579af", "environment": "production", "language": "el" }"#)
        #expect(configuration.environment == .production)
        #expect(configuration.language == .greek)
        #expect(configuration.validationIssues().isEmpty)
    }

    @Test("a preset alone gives exactly the preset", arguments: WarplyConfiguration.Preset.allCases)
    func presetAlone(preset: WarplyConfiguration.Preset) throws {
        let json = #"{"appUUID":"\#(appUUID)","merchantID":"m-1","preset":"\#(preset.rawValue)"}"#
        #expect(try decodeConfiguration(json) == WarplyConfiguration.preset(preset, appUUID: appUUID, merchantID: "m-1"))
    }

    @Test("the preset is applied first, then every other key overrides it (wherever the keys are)")
    func presetThenOverrides() throws {
        let json = #"""
            { "environment": "https://engage.warp.ly", "requestTimeoutSeconds": 12, "analyticsEnabled": true, "language": "en",
              "bundleID": "gr.dei.loyalty", "deviceID": "device-1", "partnerCredentials": {"username": "u", "password": "p"},
              "appUUID": "\#(appUUID)", "preset": "testing" }
            """#
        let configuration = try decodeConfiguration(json)
        var expected = WarplyConfiguration.preset(.testing, appUUID: appUUID)
        expected.environment = .custom(URL(string: "https://engage.warp.ly")!)
        expected.requestTimeoutSeconds = 12
        expected.analyticsEnabled = true
        expected.language = .english
        expected.bundleID = "gr.dei.loyalty"
        expected.deviceID = "device-1"
        expected.partnerCredentials = .init(username: "u", password: "p")
        #expect(configuration == expected)
        // Not overridden: the preset's (no override of the registry's auth settings).
        #expect(configuration.auth == nil)
    }

    @Test("a section's unknown keys are reported; the preset and the former tokens section are read, so not unknown")
    func unknownKeys() throws {
        var configuration = EngageConfiguration.preset(.testing, appID: "org.engagekit.tests")
        configuration.providers["warply"] = [
            "appUUID": .string(appUUID), "merchantID": "m-1", "preset": "testing", "tokens": ["refreshThresholdSeconds": 60],
            "partnerCredentials": ["username": "u", "password": "p", "pasword": "typo"], "merchantId": "typo", "language": "en",
        ]
        let registration = try ProviderRegistration.provider(WarplyProvider.self, from: configuration)
        #expect(registration.unknownKeys == ["providers.warply.merchantId", "providers.warply.partnerCredentials.pasword"])
    }

    @Test("a complete auth section replaces the preset's override")
    func fullAuthOverride() throws {
        let json = #"""
            { "appUUID": "\#(appUUID)", "preset": "highSecurity",
              "auth": { "proactiveRefreshSeconds": 120, "breakerFailureThreshold": 9, "breakerCooldownSeconds": 60 } }
            """#
        let configuration = try decodeConfiguration(json)
        #expect(configuration.auth == AuthSettings(proactiveRefreshSeconds: 120, breakerFailureThreshold: 9, breakerCooldownSeconds: 60))
        #expect(configuration.requestTimeoutSeconds == 20)
    }

    @Test("a partial auth section overrides only its keys; the rest stays the preset's")
    func partialAuthOverride() throws {
        let configuration = try decodeConfiguration(
            #"{"appUUID":"\#(appUUID)","preset":"highSecurity","auth":{"proactiveRefreshSeconds":60}}"#)
        var expected = WarplyConfiguration.preset(.highSecurity, appUUID: appUUID)
        expected.auth?.proactiveRefreshSeconds = 60
        #expect(configuration == expected)
        #expect(configuration.auth?.breakerFailureThreshold == 3)
    }

    @Test("the legacy tokens keys are read into auth under their current names; retry keys have no effect")
    func legacyTokensKeys() throws {
        let json = #"""
            { "appUUID": "\#(appUUID)",
              "tokens": { "refreshThresholdSeconds": 120, "refreshAttempts": 4, "refreshRetryDelaysSeconds": [2],
                          "circuitBreakerThreshold": 9, "circuitBreakerResetSeconds": 60 } }
            """#
        let configuration = try decodeConfiguration(json)
        #expect(configuration.auth == AuthSettings(proactiveRefreshSeconds: 120, breakerFailureThreshold: 9, breakerCooldownSeconds: 60))
        // Written back under the current name only.
        let object = try jsonObject(configuration)
        #expect(object["tokens"] == nil && object["auth"] != nil)
    }

    @Test("a partial legacy tokens section keeps the preset's other values, and an auth section wins over it")
    func legacyTokensPartialAndAuthWins() throws {
        let partial = try decodeConfiguration(
            #"{"appUUID":"\#(appUUID)","preset":"highSecurity","tokens":{"refreshAttempts":4,"refreshThresholdSeconds":90}}"#)
        #expect(partial.auth == AuthSettings(proactiveRefreshSeconds: 90, breakerFailureThreshold: 3, breakerCooldownSeconds: 600))
        let both = try decodeConfiguration(
            #"{"appUUID":"\#(appUUID)","tokens":{"circuitBreakerThreshold":9},"auth":{"breakerFailureThreshold":2}}"#
        )
        #expect(both.auth?.breakerFailureThreshold == 2)
    }

    @Test("a legacy tokens key of the wrong type is a DecodingError")
    func legacyTokensWrongType() {
        #expect(throws: DecodingError.self) {
            try decodeConfiguration(#"{"appUUID":"\#(appUUID)","tokens":{"circuitBreakerThreshold":"many"}}"#)
        }
    }

    @Test(
        "bad JSON is a DecodingError",
        arguments: [
            #"{}"#, #"{"merchantID":"m"}"#, #"{"appUUID":5}"#, #"{"appUUID":"\#(appUUID)","preset":"staging"}"#,
            #"{"appUUID":"\#(appUUID)","language":"de"}"#, #"{"appUUID":"\#(appUUID)","environment":"uat"}"#,
            #"{"appUUID":"\#(appUUID)","requestTimeoutSeconds":"30"}"#, #"{"appUUID":"\#(appUUID)","partnerCredentials":{"username":"u"}}"#,
            #"{"appUUID":"\#(appUUID)","analyticsEnabled":"yes"}"#, #"[]"#,
        ]
    )
    func badJSON(json: String) {
        #expect(throws: DecodingError.self) { try decodeConfiguration(json) }
    }

    @Test("encoding writes every setting and no preset key; decoding it gives the same configuration")
    func roundTrip() throws {
        var configuration = WarplyConfiguration.preset(.highSecurity, appUUID: appUUID, merchantID: "m-1")
        configuration.environment = .custom(URL(string: "http://127.0.0.1:9000/warply")!)
        configuration.language = .english
        configuration.bundleID = "gr.dei.loyalty"
        configuration.deviceID = "device-1"
        configuration.partnerCredentials = .init(username: "user", password: "pass")
        configuration.auth?.proactiveRefreshSeconds = 45
        configuration.signing = .deviceRegistration
        let object = try jsonObject(configuration)
        #expect(object["preset"] == nil)
        #expect(object["signing"] as? String == "deviceRegistration")
        #expect(
            Set(object.keys) == [
                "appUUID", "merchantID", "signing", "environment", "language", "bundleID", "deviceID", "requestTimeoutSeconds", "auth",
                "partnerCredentials", "analyticsEnabled", "logLevel", "maxAttempts", "allowsCellularAccess",
            ])
        #expect(object["environment"] as? String == "http://127.0.0.1:9000/warply")
        #expect(object["language"] as? String == "en")
        let decoded = try JSONDecoder().decode(WarplyConfiguration.self, from: JSONEncoder().encode(configuration))
        #expect(decoded == configuration)
    }

    @Test("optional settings left nil are not encoded, and stay nil after a round trip", arguments: WarplyConfiguration.Preset.allCases)
    func roundTripPresets(preset: WarplyConfiguration.Preset) throws {
        let configuration = WarplyConfiguration.preset(preset, appUUID: appUUID)
        let object = try jsonObject(configuration)
        #expect(object["bundleID"] == nil && object["deviceID"] == nil && object["partnerCredentials"] == nil)
        #expect(try JSONDecoder().decode(WarplyConfiguration.self, from: JSONEncoder().encode(configuration)) == configuration)
    }
}

// MARK: - Environment

@Suite("WarplyEnvironment (unit)", .bounded)
struct WarplyEnvironmentUnitTests {
    @Test("the named environments are the seed's hosts")
    func namedBaseURLs() {
        #expect(WarplyEnvironment.development.baseURL.absoluteString == "https://engage-uat.dei.gr")
        #expect(WarplyEnvironment.production.baseURL.absoluteString == "https://engage-prod.dei.gr")
        #expect(WarplyEnvironment.development.baseURL.host == "engage-uat.dei.gr")
        #expect(WarplyEnvironment.production.baseURL.host == "engage-prod.dei.gr")
        #expect(WarplyEnvironment.developmentURL == WarplyEnvironment.development.baseURL)
        #expect(WarplyEnvironment.productionURL == WarplyEnvironment.production.baseURL)
        let custom = URL(string: "https://engage.warp.ly")!
        #expect(WarplyEnvironment.custom(custom).baseURL == custom)
    }

    @Test("decodes development, production and absolute URLs")
    func decodesNamesAndURLs() throws {
        #expect(try decodeEnvironment(#""development""#) == .development)
        #expect(try decodeEnvironment(#""production""#) == .production)
        #expect(try decodeEnvironment(#""https://engage.warp.ly""#) == .custom(URL(string: "https://engage.warp.ly")!))
        let local = try decodeEnvironment(#""http://127.0.0.1:8080/prefix""#)
        #expect(local.baseURL.port == 8080)
        #expect(local.baseURL.path == "/prefix")
    }

    @Test(
        "anything else is a dataCorrupted DecodingError",
        arguments: [
            #""""#, #""uat""#, #""Production""#, #""DEVELOPMENT""#, #""not a url""#, #""/relative/path""#, #""engage.warp.ly""#,
            #""https://""#,
        ]
    )
    func rejectsGarbage(json: String) {
        let error = #expect(throws: DecodingError.self) { try decodeEnvironment(json) }
        if let error, case .dataCorrupted = error {
        } else {
            Issue.record("expected dataCorrupted, got \(String(describing: error))")
        }
    }

    @Test("a value that is not a string is a DecodingError", arguments: ["1", "true", "null", #"{"url":"https://x.example"}"#, "[]"])
    func rejectsNonStrings(json: String) {
        #expect(throws: DecodingError.self) { try decodeEnvironment(json) }
    }

    @Test("the error names the bad value, bounded to 100 characters")
    func errorNamesTheValue() throws {
        let long = String(repeating: "x", count: 300)
        do {
            _ = try decodeEnvironment("\"\(long)\"")
            Issue.record("decoded garbage")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.debugDescription.contains(String(repeating: "x", count: 100)))
            #expect(!context.debugDescription.contains(String(repeating: "x", count: 101)))
        }
    }

    @Test(
        "encodes as its description and decodes back",
        arguments: [
            WarplyEnvironment.development, .production, .custom(URL(string: "https://engage.warp.ly")!),
            .custom(URL(string: "http://localhost:8080/w")!),
        ]
    )
    func roundTrip(environment: WarplyEnvironment) throws {
        let data = try JSONEncoder().encode([environment])
        let text = try #require(try JSONSerialization.jsonObject(with: data) as? [String]).first
        #expect(text == environment.description)
        #expect(try JSONDecoder().decode([WarplyEnvironment].self, from: data) == [environment])
    }

    @Test("descriptions")
    func descriptions() {
        #expect(WarplyEnvironment.development.description == "development")
        #expect(WarplyEnvironment.production.description == "production")
        #expect(WarplyEnvironment.custom(URL(string: "https://engage.warp.ly")!).description == "https://engage.warp.ly")
    }

    @Test("languages are el and en")
    func languages() throws {
        #expect(WarplyLanguage.allCases.map(\.rawValue) == ["el", "en"])
        #expect(try JSONDecoder().decode([WarplyLanguage].self, from: Data(#"["en","el"]"#.utf8)) == [.english, .greek])
    }
}

// MARK: - Secrets

@Suite("WarplyConfiguration secrets (unit)", .bounded)
struct WarplyConfigurationSecretsUnitTests {
    static let password = "p4ssw0rd-s3cret"
    static let credentials = WarplyConfiguration.PartnerCredentials(username: "cosmote-partner", password: password)

    @Test("PartnerCredentials.description is redacted, also inside a configuration's description")
    func descriptionRedacted() {
        #expect(Self.credentials.description == "PartnerCredentials(<redacted>)")
        #expect("\(Self.credentials)" == "PartnerCredentials(<redacted>)")
        #expect(!String(reflecting: Self.credentials).contains(Self.password))
        let configuration = adjusted { $0.partnerCredentials = Self.credentials }
        #expect(!String(describing: configuration).contains(Self.password))
        #expect(!String(reflecting: configuration).contains(Self.password))
        #expect(!"\([configuration])".contains(Self.password))
    }

    @Test("dump() of the credentials or a configuration does not show the password")
    func dumpRedacted() {
        var credentialsDump = ""
        dump(Self.credentials, to: &credentialsDump)
        #expect(!credentialsDump.contains(Self.password))
        var configurationDump = ""
        dump(adjusted { $0.partnerCredentials = Self.credentials }, to: &configurationDump)
        #expect(!configurationDump.contains(Self.password))
    }

    @Test("an EngageConfiguration holding the Warply section does not print the partner password")
    func engageConfigurationDoesNotLeak() throws {
        var engage = EngageConfiguration.preset(.testing, appID: "org.example.app")
        try engage.setProvider(.warply, adjusted { $0.partnerCredentials = Self.credentials })
        #expect(!String(describing: engage).contains(Self.password))
        #expect(!String(reflecting: engage).contains(Self.password))
    }
}

// MARK: - Registration in EngageConfiguration

@Suite("WarplyConfiguration in EngageConfiguration (unit)", .bounded)
struct WarplyConfigurationRegistrationUnitTests {
    @Test("setProvider(.warply, …) then providerConfiguration gives the same configuration back")
    func setAndRead() throws {
        var warply = WarplyConfiguration.preset(.development, appUUID: appUUID, merchantID: "m-1")
        warply.language = .english
        warply.partnerCredentials = .init(username: "u", password: "p")
        var engage = EngageConfiguration.preset(.testing, appID: "org.example.app")
        try engage.setProvider(.warply, warply)
        #expect(engage.providers.keys.sorted() == ["warply"])
        #expect(engage.providers["warply"]?["appUUID"] == .string(appUUID))
        #expect(engage.providers["warply"]?["preset"] == nil)
        #expect(try engage.providerConfiguration(WarplyConfiguration.self, for: .warply) == warply)
        #expect(engage.validationIssues().isEmpty)
    }

    @Test("no section: providerConfiguration is nil")
    func noSection() throws {
        let engage = EngageConfiguration.preset(.production, appID: "org.example.app")
        #expect(try engage.providerConfiguration(WarplyConfiguration.self, for: .warply) == nil)
    }

    @Test("a JSON section in a loaded EngageConfiguration, with a preset, is read the same way")
    func loadedFromJSON() throws {
        let json = #"""
            { "appID": "org.example.app", "preset": "testing",
              "providers": { "warply": { "appUUID": "\#(appUUID)", "preset": "testing", "environment": "production" } } }
            """#
        let engage = try EngageConfiguration.load(json: Data(json.utf8))
        let warply = try #require(try engage.providerConfiguration(WarplyConfiguration.self, for: .warply))
        var expected = WarplyConfiguration.preset(.testing, appUUID: appUUID)
        expected.environment = .production
        #expect(warply == expected)
    }

    @Test("a section that does not decode is invalidConfiguration attributed to warply")
    func badSection() throws {
        var engage = EngageConfiguration.preset(.production, appID: "org.example.app")
        engage.providers["warply"] = ["appUUID": 5]
        do {
            _ = try engage.providerConfiguration(WarplyConfiguration.self, for: .warply)
            Issue.record("decoded a bad section")
        } catch {
            #expect(error.code == .invalidConfiguration)
            #expect(error.providerID == .warply)
        }
        engage.providers["warply"] = ["appUUID": .string(appUUID), "environment": "nowhere"]
        #expect(throws: EngageError.self) { try engage.providerConfiguration(WarplyConfiguration.self, for: .warply) }
    }

    @Test("a section that decodes but is invalid still reports its issues through validate(for:)")
    func decodedButInvalid() throws {
        var engage = EngageConfiguration.preset(.production, appID: "org.example.app")
        engage.providers["warply"] = ["appUUID": "short"]
        let warply = try #require(try engage.providerConfiguration(WarplyConfiguration.self, for: .warply))
        #expect(throws: EngageError.self) { try warply.validate(for: .warply) }
    }

    @Test("the provider id and error codes")
    func identifiers() {
        #expect(ProviderID.warply.rawValue == "warply")
        #expect(ProviderID.warply.isValid)
        #expect(EngageError.Code.warplyRequestRejected.rawValue == "warply.requestRejected")
        #expect(EngageError.Code.warplyRegistrationInvalid.rawValue == "warply.registrationInvalid")
        #expect(EngageError.Code.warplyCouponNotRedeemable.rawValue == "warply.couponNotRedeemable")
    }
}
