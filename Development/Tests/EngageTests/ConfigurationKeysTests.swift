@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) @testable import EngageTesting
import EngageTestTraits
import Foundation
import Testing

#if Crobox
    import EngageCrobox
#endif

/// What an app team reads before it ships: the version the SDK reports, settings nothing reads, and
/// typed provider sections.
@Suite("Configuration: unknown keys, typed sections, the SDK's version", .bounded)
struct ConfigurationKeysTests {
    @Test("Engage.version is the newest version section of CHANGELOG.md")
    func versionMatchesChangelog() throws {
        let changelog = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("CHANGELOG.md")
        let text = try String(contentsOf: changelog, encoding: .utf8)
        let heading = try #require(
            text.split(separator: "\n").first { line in
                line.hasPrefix("## ") && line.dropFirst(3).first?.isNumber == true
            }, "CHANGELOG.md has a version section")
        let version = heading.dropFirst(3).prefix { !$0.isWhitespace }
        #expect(String(version) == Engage.version)
        let parts = Engage.version.split(separator: ".")
        #expect(parts.count == 3 && parts.allSatisfy { Int($0) != nil }, "major.minor.patch: \(Engage.version)")
    }

    @Test("settings nothing reads are listed as dotted paths, nested and indexed; a null and a known key are not")
    func unknownSharedSettings() throws {
        let json = """
            {
              "appID": "org.engagekit.tests", "preset": "testing", "colour": "blue", "logLevel": null,
              "network": {"timeoutSecs": 5, "timeoutSeconds": 10},
              "analytics": {"flushIntervalSeconds": 1, "unknownFlag": true},
              "links": {"routes": [{"provider": "warply", "destination": "campaign",
                                    "template": "https://offers.example.com/c/{id}", "templat": "typo"}]},
              "providers": {"anything": {"is": "its provider's to check"}}
            }
            """
        let configuration = try EngageConfiguration.load(json: Data(json.utf8))
        #expect(configuration.unknownKeys == ["analytics.unknownFlag", "colour", "links.routes[0].templat", "network.timeoutSecs"])
        #expect(configuration.network.timeoutSeconds == 10)
        // The same settings built in code have no unknown keys, and compare equal.
        var built = EngageConfiguration.preset(.testing, appID: "org.engagekit.tests")
        built.network = configuration.network
        built.analytics = configuration.analytics
        built.links = configuration.links
        built.providers = configuration.providers
        #expect(built.unknownKeys.isEmpty)
        #expect(built == configuration)
        // A configuration written by the SDK reads back with nothing unknown.
        let again = try JSONDecoder().decode(EngageConfiguration.self, from: JSONEncoder().encode(configuration))
        #expect(again.unknownKeys.isEmpty)
    }

    @Test("at most 50 unknown keys are listed, each cut to 64 characters")
    func unknownKeysAreBounded() throws {
        var object: [String: JSONValue] = ["appID": "org.engagekit.tests"]
        for index in 0..<500 { object["k\(index)-" + String(repeating: "x", count: 500)] = .integer(Int64(index)) }
        let configuration = try JSONDecoder().decode(EngageConfiguration.self, from: JSONEncoder().encode(JSONValue.object(object)))
        #expect(configuration.unknownKeys.count == JSONValue.maximumUnknownKeyPaths)
        #expect(configuration.unknownKeys.allSatisfy { $0.count == 64 })
    }

    #if Crobox
        @Test("a provider section's unknown keys are in the start report, and the provider starts with the defaults")
        func unknownProviderKeys() async throws {
            let json = """
                {"appID": "org.engagekit.tests", "preset": "testing", "storage": {"kind": "inMemory"}, "network": {"timeoutSecond": 3},
                 "providers": {"crobox": {"containerID": "xlrc9t", "containerId": "typo", "locale": null}}}
                """
            let configuration = try EngageConfiguration.load(json: Data(json.utf8))
            let engage = try await Engage.start(configuration: configuration, environment: testEnvironment(transport: InMemoryTransport()))
            let report = await engage.waitUntilReady()
            #expect(report.started == [.crobox])
            #expect(report.unknownKeys == ["network.timeoutSecond", "providers.crobox.containerId"])
            await engage.shutdown()
        }

        @Test("a typed section is the provider's section: the provider starts from it, and a second add replaces it")
        func typedSection() async throws {
            var configuration = testConfiguration()
            try configuration.add(.crobox(CroboxConfiguration(containerID: "first")))
            try configuration.add(.crobox(CroboxConfiguration(containerID: "xlrc9t", locale: "de_DE")))
            #expect(configuration.providers["crobox"]?["containerID"] == "xlrc9t")
            let read = try #require(try configuration.providerConfiguration(CroboxConfiguration.self, for: .crobox))
            #expect(read == CroboxConfiguration(containerID: "xlrc9t", locale: "de_DE"))
            let engage = try await Engage.start(configuration: configuration, environment: testEnvironment(transport: InMemoryTransport()))
            let report = await engage.waitUntilReady()
            #expect(report.started == [.crobox])
            #expect(report.unknownKeys.isEmpty)
            await engage.shutdown()
        }
    #endif
}
