import EngageCore
import EngageWarply
import Foundation
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

@Suite("WarplyConfiguration presets (unit)")
struct WarplyConfigurationPresetUnitTests {
    struct Expected: Sendable, CustomTestStringConvertible {
        var preset: WarplyConfiguration.Preset
        var environment: WarplyEnvironment
        var timeout: Double
        var refreshAttempts: Int
        var breakerThreshold: Int
        var breakerReset: Double
        var analytics: Bool
        var testDescription: String { preset.rawValue }
    }

    static let table: [Expected] = [
        Expected(preset: .development, environment: .development, timeout: 15, refreshAttempts: 2, breakerThreshold: 5, breakerReset: 300, analytics: true),
        Expected(preset: .production, environment: .production, timeout: 30, refreshAttempts: 3, breakerThreshold: 5, breakerReset: 300, analytics: true),
        Expected(preset: .testing, environment: .development, timeout: 5, refreshAttempts: 1, breakerThreshold: 5, breakerReset: 300, analytics: false),
        Expected(preset: .highSecurity, environment: .production, timeout: 20, refreshAttempts: 2, breakerThreshold: 3, breakerReset: 600, analytics: false),
    ]

    @Test("each preset has the documented values", arguments: table)
    func presetValues(expected: Expected) {
        let configuration = WarplyConfiguration.preset(expected.preset, appUUID: appUUID, merchantID: "merchant-7")
        #expect(configuration.appUUID == appUUID)
        #expect(configuration.merchantID == "merchant-7")
        #expect(configuration.environment == expected.environment)
        #expect(configuration.requestTimeoutSeconds == expected.timeout)
        #expect(configuration.tokens.refreshAttempts == expected.refreshAttempts)
        #expect(configuration.tokens.circuitBreakerThreshold == expected.breakerThreshold)
        #expect(configuration.tokens.circuitBreakerResetSeconds == expected.breakerReset)
        #expect(configuration.analyticsEnabled == expected.analytics)
        // Shared by every preset: the SDK's 5-minute proactive window and [1, 5] s retry delays.
        #expect(configuration.tokens.refreshThresholdSeconds == 300)
        #expect(configuration.tokens.refreshRetryDelaysSeconds == [1, 5])
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

    @Test("the initializer's defaults are production's, with the registry's timeout (nil)")
    func initializerDefaults() {
        let configuration = WarplyConfiguration(appUUID: appUUID)
        var production = WarplyConfiguration.preset(.production, appUUID: appUUID)
        production.requestTimeoutSeconds = nil
        #expect(configuration == production)
        #expect(configuration.merchantID.isEmpty)
        #expect(configuration.tokens == WarplyConfiguration.TokenSettings())
    }

    @Test("TokenSettings defaults are the SDK's")
    func tokenDefaults() {
        let tokens = WarplyConfiguration.TokenSettings()
        #expect(tokens.refreshThresholdSeconds == 300)
        #expect(tokens.refreshAttempts == 3)
        #expect(tokens.refreshRetryDelaysSeconds == [1, 5])
        #expect(tokens.circuitBreakerThreshold == 5)
        #expect(tokens.circuitBreakerResetSeconds == 300)
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

@Suite("WarplyConfiguration validation (unit)")
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
        Case(name: "appUUID not hex", configuration: adjusted { $0.appUUID = "zz3dfde1145e4c2da69793abb2f579af" }, field: "appUUID", recovery: "copy it from the Warply dashboard"),
        Case(name: "appUUID too short", configuration: adjusted { $0.appUUID = "f83dfde1145e4c2da69793abb2f579a" }, field: "appUUID", recovery: "32 hex digits"),
        Case(name: "appUUID too long", configuration: adjusted { $0.appUUID = appUUID + "0" }, field: "appUUID", recovery: "copy it from the Warply dashboard"),
        Case(name: "appUUID empty", configuration: adjusted { $0.appUUID = "" }, field: "appUUID", recovery: "copy it from the Warply dashboard"),
        Case(name: "appUUID misplaced dashes", configuration: adjusted { $0.appUUID = "f83dfde1-145e4c2da-69793abb2f579-af" }, field: "appUUID", recovery: "copy it from the Warply dashboard"),
        Case(name: "merchantID too long", configuration: adjusted { $0.merchantID = String(repeating: "m", count: 129) }, field: "merchantID", recovery: "at most 128 characters on one line"),
        Case(name: "merchantID multiline", configuration: adjusted { $0.merchantID = "m\nx" }, field: "merchantID", recovery: "at most 128 characters on one line"),
        Case(name: "environment relative URL", configuration: adjusted { $0.environment = .custom(URL(string: "relative/path")!) }, field: "environment", recovery: "development, production or an absolute URL"),
        Case(name: "timeout zero", configuration: adjusted { $0.requestTimeoutSeconds = 0 }, field: "requestTimeoutSeconds", recovery: "the presets use 5 to 30"),
        Case(name: "timeout negative", configuration: adjusted { $0.requestTimeoutSeconds = -1 }, field: "requestTimeoutSeconds", recovery: "the presets use 5 to 30"),
        Case(name: "timeout too long", configuration: adjusted { $0.requestTimeoutSeconds = 300.5 }, field: "requestTimeoutSeconds", recovery: "the presets use 5 to 30"),
        Case(name: "timeout NaN", configuration: adjusted { $0.requestTimeoutSeconds = .nan }, field: "requestTimeoutSeconds", recovery: "the presets use 5 to 30"),
        Case(name: "timeout infinite", configuration: adjusted { $0.requestTimeoutSeconds = .infinity }, field: "requestTimeoutSeconds", recovery: "the presets use 5 to 30"),
        Case(name: "bundleID empty", configuration: adjusted { $0.bundleID = "" }, field: "bundleID", recovery: "e.g. gr.dei.loyalty"),
        Case(name: "bundleID with colon", configuration: adjusted { $0.bundleID = "ios:gr.dei" }, field: "bundleID", recovery: "without ':' or line breaks"),
        Case(name: "bundleID multiline", configuration: adjusted { $0.bundleID = "gr.dei\nloyalty" }, field: "bundleID", recovery: "e.g. gr.dei.loyalty"),
        Case(name: "bundleID too long", configuration: adjusted { $0.bundleID = String(repeating: "b", count: 256) }, field: "bundleID", recovery: "1 to 255 characters"),
        Case(name: "deviceID empty", configuration: adjusted { $0.deviceID = "" }, field: "deviceID", recovery: "or nil to generate one"),
        Case(name: "deviceID too long", configuration: adjusted { $0.deviceID = String(repeating: "d", count: 129) }, field: "deviceID", recovery: "or nil to generate one"),
        Case(name: "deviceID multiline", configuration: adjusted { $0.deviceID = "d\r\n" }, field: "deviceID", recovery: "or nil to generate one"),
        Case(name: "partner username empty", configuration: adjusted { $0.partnerCredentials = .init(username: "", password: "p") }, field: "partnerCredentials.username", recovery: "must not be empty or contain ':'"),
        Case(name: "partner username with colon", configuration: adjusted { $0.partnerCredentials = .init(username: "a:b", password: "p") }, field: "partnerCredentials.username", recovery: "must not be empty or contain ':'"),
        Case(name: "refresh threshold negative", configuration: adjusted { $0.tokens.refreshThresholdSeconds = -1 }, field: "tokens.refreshThresholdSeconds", recovery: "the SDK default is 300"),
        Case(name: "refresh threshold too long", configuration: adjusted { $0.tokens.refreshThresholdSeconds = 3601 }, field: "tokens.refreshThresholdSeconds", recovery: "the SDK default is 300"),
        Case(name: "refresh threshold NaN", configuration: adjusted { $0.tokens.refreshThresholdSeconds = .nan }, field: "tokens.refreshThresholdSeconds", recovery: "the SDK default is 300"),
        Case(name: "refresh attempts zero", configuration: adjusted { $0.tokens.refreshAttempts = 0 }, field: "tokens.refreshAttempts", recovery: "within 1...10"),
        Case(name: "refresh attempts eleven", configuration: adjusted { $0.tokens.refreshAttempts = 11 }, field: "tokens.refreshAttempts", recovery: "within 1...10"),
        Case(name: "retry delay negative", configuration: adjusted { $0.tokens.refreshRetryDelaysSeconds = [1, -1] }, field: "tokens.refreshRetryDelaysSeconds", recovery: "within 0...300 seconds"),
        Case(name: "retry delay too long", configuration: adjusted { $0.tokens.refreshRetryDelaysSeconds = [301] }, field: "tokens.refreshRetryDelaysSeconds", recovery: "within 0...300 seconds"),
        Case(name: "retry delay NaN", configuration: adjusted { $0.tokens.refreshRetryDelaysSeconds = [.nan] }, field: "tokens.refreshRetryDelaysSeconds", recovery: "within 0...300 seconds"),
        Case(name: "retry delays empty with retries", configuration: adjusted { $0.tokens.refreshRetryDelaysSeconds = [] }, field: "tokens.refreshRetryDelaysSeconds", recovery: "must not be empty when refreshAttempts is more than 1"),
        Case(name: "breaker threshold zero", configuration: adjusted { $0.tokens.circuitBreakerThreshold = 0 }, field: "tokens.circuitBreakerThreshold", recovery: "within 1...100"),
        Case(name: "breaker threshold too high", configuration: adjusted { $0.tokens.circuitBreakerThreshold = 101 }, field: "tokens.circuitBreakerThreshold", recovery: "within 1...100"),
        Case(name: "breaker reset zero", configuration: adjusted { $0.tokens.circuitBreakerResetSeconds = 0 }, field: "tokens.circuitBreakerResetSeconds", recovery: "within 1...86400"),
        Case(name: "breaker reset too long", configuration: adjusted { $0.tokens.circuitBreakerResetSeconds = 86_401 }, field: "tokens.circuitBreakerResetSeconds", recovery: "within 1...86400"),
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
            $0.tokens.refreshAttempts = 0
        }
        #expect(configuration.validationIssues().count == 2)
        do {
            try configuration.validate(for: .warply)
            Issue.record("validate(for:) accepted an invalid configuration")
        } catch {
            #expect(error.code == .invalidConfiguration)
            #expect(error.providerID == .warply)
            #expect(error.message.contains("appUUID must be the 32 hex digits"))
            #expect(error.message.contains("tokens.refreshAttempts must be within 1...10"))
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
            $0.tokens = .init(refreshThresholdSeconds: -1, refreshAttempts: 0, refreshRetryDelaysSeconds: [-1], circuitBreakerThreshold: 0, circuitBreakerResetSeconds: 0)
        }
        #expect(configuration.validationIssues().count == 12)
    }

    @Test(
        "valid appUUIDs: 32 hex digits in either case, or the dashed UUID form",
        arguments: [appUUID, appUUID.uppercased(), "F83DFDE1-145E-4C2D-A697-93ABB2F579AF", "f83dfde1-145e-4c2d-a697-93abb2f579af", String(repeating: "0", count: 32)]
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
            $0.tokens = .init(
                refreshThresholdSeconds: 0, refreshAttempts: 10, refreshRetryDelaysSeconds: [0, 300], circuitBreakerThreshold: 100,
                circuitBreakerResetSeconds: 86_400
            )
        }
        #expect(configuration.validationIssues().isEmpty)
        #expect(adjusted { $0.tokens.refreshAttempts = 1; $0.tokens.refreshRetryDelaysSeconds = [] }.validationIssues().isEmpty)
        #expect(adjusted { $0.requestTimeoutSeconds = 0.001 }.validationIssues().isEmpty)
        #expect(adjusted { $0.requestTimeoutSeconds = nil }.validationIssues().isEmpty)
    }
}

// MARK: - JSON

@Suite("WarplyConfiguration JSON (unit)")
struct WarplyConfigurationJSONUnitTests {
    @Test("only appUUID is required; the rest takes the initializer's defaults")
    func minimalJSON() throws {
        #expect(try decodeConfiguration(#"{"appUUID":"\#(appUUID)"}"#) == WarplyConfiguration(appUUID: appUUID))
    }

    @Test("the example of the type's documentation decodes")
    func documentedExample() throws {
        let configuration = try decodeConfiguration(#"{ "appUUID": "f83dfde1145e4c2da69793abb2f579af", "environment": "production", "language": "el" }"#)
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
        // Not overridden: the preset's.
        #expect(configuration.tokens.refreshAttempts == 1)
    }

    @Test("a complete tokens section replaces the preset's")
    func fullTokensOverride() throws {
        let json = #"""
            { "appUUID": "\#(appUUID)", "preset": "highSecurity",
              "tokens": { "refreshThresholdSeconds": 120, "refreshAttempts": 4, "refreshRetryDelaysSeconds": [2],
                          "circuitBreakerThreshold": 9, "circuitBreakerResetSeconds": 60 } }
            """#
        let configuration = try decodeConfiguration(json)
        #expect(configuration.tokens == .init(refreshThresholdSeconds: 120, refreshAttempts: 4, refreshRetryDelaysSeconds: [2], circuitBreakerThreshold: 9, circuitBreakerResetSeconds: 60))
        #expect(configuration.requestTimeoutSeconds == 20)
    }

    @Test("a partial tokens section overrides only its keys")
    func partialTokensOverride() throws {
        let configuration = try decodeConfiguration(#"{"appUUID":"\#(appUUID)","preset":"highSecurity","tokens":{"refreshAttempts":4}}"#)
        var expected = WarplyConfiguration.preset(.highSecurity, appUUID: appUUID)
        expected.tokens.refreshAttempts = 4
        #expect(configuration == expected)
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
        configuration.tokens.refreshRetryDelaysSeconds = [0.5, 2, 8]
        let object = try jsonObject(configuration)
        #expect(object["preset"] == nil)
        #expect(Set(object.keys) == [
            "appUUID", "merchantID", "environment", "language", "bundleID", "deviceID", "requestTimeoutSeconds", "tokens", "partnerCredentials",
            "analyticsEnabled",
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

@Suite("WarplyEnvironment (unit)")
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
        arguments: [#""""#, #""uat""#, #""Production""#, #""DEVELOPMENT""#, #""not a url""#, #""/relative/path""#, #""engage.warp.ly""#, #""https://""#]
    )
    func rejectsGarbage(json: String) {
        let error = #expect(throws: DecodingError.self) { try decodeEnvironment(json) }
        if let error, case .dataCorrupted = error {} else {
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
        arguments: [WarplyEnvironment.development, .production, .custom(URL(string: "https://engage.warp.ly")!), .custom(URL(string: "http://localhost:8080/w")!)]
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

@Suite("WarplyConfiguration secrets (unit)")
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

@Suite("WarplyConfiguration in EngageConfiguration (unit)")
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
