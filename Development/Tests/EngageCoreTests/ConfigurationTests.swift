@_spi(EngageProvider) @testable import EngageCore
import Foundation
import Logging
import EngageTestTraits
import Testing

@Suite("Configuration", .bounded)
struct ConfigurationTests {
    @Test("presets differ as documented and are all valid", arguments: EngageConfiguration.Preset.allCases)
    func presets(preset: EngageConfiguration.Preset) throws {
        let configuration = EngageConfiguration.preset(preset, appID: "com.example.shop")
        try configuration.validate()
        switch preset {
        case .development:
            #expect(configuration.network.timeoutSeconds == 15)
            #expect(configuration.network.maxAttempts == 2)
            #expect(configuration.logLevel == .trace)
        case .production:
            #expect(configuration.network.timeoutSeconds == 30)
            #expect(configuration.network.maxAttempts == 3)
            #expect(!configuration.network.allowsInsecureHTTP)
        case .testing:
            #expect(configuration.storage == .inMemory)
            #expect(configuration.network.maxAttempts == 1)
        case .highSecurity:
            #expect(configuration.network.timeoutSeconds == 20)
            #expect(configuration.logLevel == .error)
        }
    }

    @Test("JSON with only an app id takes the preset's settings; partial sections keep defaults")
    func jsonLoading() throws {
        let json = #"""
            {"appID": "com.example.shop", "preset": "testing",
             "network": {"timeoutSeconds": 12},
             "providers": {"crobox": {"containerID": "xlrc9t"}}}
            """#
        let configuration = try EngageConfiguration.load(json: Data(json.utf8))
        #expect(configuration.storage == .inMemory)
        #expect(configuration.network.timeoutSeconds == 12)
        #expect(configuration.network.maxAttempts == 3)
        #expect(configuration.providers["crobox"] == .object(["containerID": .string("xlrc9t")]))
    }

    @Test(
        "bad JSON gives a clear invalidConfiguration error",
        arguments: [
            ("not json", "not valid JSON"),
            (#"{"preset": "production"}"#, "appID"),
            (#"{"appID": "a", "network": {"timeoutSeconds": "fast"}}"#, "network.timeoutSeconds"),
            (#"{"appID": "../../etc", "preset": "production"}"#, "appID"),
            (#"{"appID": "com.x", "network": {"timeoutSeconds": -1}}"#, "timeoutSeconds"),
            (#"{"appID": "com.x", "providers": {"Bad Id!": {}}}"#, "provider id"),
        ])
    func invalidJSON(json: String, mention: String) {
        #expect {
            try EngageConfiguration.load(json: Data(json.utf8))
        } throws: { error in
            guard let error = error as? EngageError else { return false }
            return error.code == .invalidConfiguration && "\(error.message) \(error.debugDescription)".contains(mention)
        }
    }

    @Test("provider sections round-trip through typed configuration")
    func providerSections() throws {
        struct Sample: ProviderConfiguration, Equatable {
            var containerID: String
            var limit: Int
        }
        var configuration = EngageConfiguration.preset(.testing, appID: "com.example.shop")
        try configuration.setProvider("sample", Sample(containerID: "abc", limit: 3))
        #expect(try configuration.providerConfiguration(Sample.self, for: "sample") == Sample(containerID: "abc", limit: 3))
        #expect(try configuration.providerConfiguration(Sample.self, for: "absent") == nil)
        configuration.providers["sample"] = .object(["containerID": .number(1)])
        #expect(try throwsCode(.invalidConfiguration) { _ = try configuration.providerConfiguration(Sample.self, for: "sample") })
    }

    @Test("base URLs: https always, http only on loopback unless insecure HTTP is allowed")
    func baseURLPolicy() throws {
        let production = NetworkSettings()
        try production.validate(baseURL: URL(string: "https://api.crobox.com")!)
        try production.validate(baseURL: URL(string: "http://127.0.0.1:8080/crobox")!)
        #expect(try throwsCode(.invalidConfiguration) { try production.validate(baseURL: URL(string: "http://api.crobox.com")!) })
        #expect(try throwsCode(.invalidConfiguration) { try production.validate(baseURL: URL(string: "ftp://x.org")!) })
        try NetworkSettings(allowsInsecureHTTP: true).validate(baseURL: URL(string: "http://10.0.2.2:8080")!)
    }

    @Test("a refused base URL is named without its password or its query's secrets")
    func refusedURLsHideSecrets() throws {
        let url = try #require(URL(string: "ftp://eva:pa55word@files.example.com/feed?token=tok-SECRET-1&lang=el"))
        let error = #expect(throws: EngageError.self) { try NetworkSettings().validate(baseURL: url) }
        let message = try #require(error).message
        #expect(message.contains("files.example.com/feed"))
        #expect(!message.contains("pa55word") && !message.contains("tok-SECRET-1"), "\(message)")
    }

    @Test(
        "loopback means localhost, ::1 or a real 127.x.y.z address",
        arguments: [
            ("http://localhost:8080/x", true), ("http://LOCALHOST/x", true), ("http://[::1]:8080/x", true),
            ("http://127.0.0.1:8080/x", true), ("http://127.255.10.1/x", true),
            ("http://127.attacker.com/x", false), ("http://127.0.0.1.nip.io/x", false), ("http://127.0.0.256/x", false),
            ("http://127.0.0/x", false), ("http://127.0.0.1.2/x", false), ("http://127.0.0.-1/x", false),
            ("http://localhost.attacker.com/x", false), ("http://1270.0.0.1/x", false), ("http://127.0.0.0001/x", false),
        ])
    func loopbackHosts(url: String, allowed: Bool) throws {
        let production = NetworkSettings()
        let parsed = try #require(URL(string: url))
        if allowed {
            try production.validate(baseURL: parsed)
        } else {
            #expect(try throwsCode(.invalidConfiguration) { try production.validate(baseURL: parsed) })
        }
    }

    @Test("printing, reflecting or dumping a configuration hides secret-looking keys of provider sections, at any depth")
    func providerSecretsRedacted() throws {
        var configuration = EngageConfiguration.preset(.testing, appID: "com.example.shop")
        configuration.providers["crobox"] = ["containerID": "xlrc9t"]
        configuration.providers["acme"] = [
            "partnerCredentials": ["username": "partner-user", "password": "pw-one-1"],
            "nested": ["clientSecret": "pw-two-2", "list": [["api_key": "pw-three-3"], ["refreshToken": "pw-four-4"]]],
            "signingKey": "pw-five-5", "authToken": "pw-six-6", "note": "Bearer abcdefghijklmnop", "region": "eu-west",
        ]
        let secrets = ["pw-one-1", "partner-user", "pw-two-2", "pw-three-3", "pw-four-4", "pw-five-5", "pw-six-6", "abcdefghijklmnop"]
        var dumped = ""
        dump(configuration, to: &dumped)
        for text in [String(describing: configuration), String(reflecting: configuration), "\([configuration])", dumped] {
            for secret in secrets { #expect(!text.contains(secret), "\(secret) in \(text)") }
            #expect(text.contains("<redacted>"))
            #expect(text.contains("xlrc9t"))  // non-secret values stay readable
            #expect(text.contains("eu-west"))
            #expect(text.contains("com.example.shop"))
        }
        // The configuration itself is unchanged: only its printed forms are redacted.
        #expect(configuration.providers["acme"]?["signingKey"] == "pw-five-5")
    }
}
