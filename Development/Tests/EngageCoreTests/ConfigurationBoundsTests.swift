@_spi(EngageProvider) @testable import EngageCore
import Foundation
import EngageTestTraits
import Testing

/// Every numeric setting has an upper bound as well as a lower one: a value from a remote configuration
/// or a typo is refused with a message naming it, never multiplied into an overflow or a week-long wait.
@Suite("Configuration: every numeric setting is bounded", .bounded)
struct ConfigurationBoundsTests {
    @Test(
        "network settings out of range are named",
        arguments: [
            "maxResponseBytes=9223372036854775807", "maxResponseBytes=2147483648", "retryMaxDelaySeconds=1e12", "retryBaseDelaySeconds=inf",
            "callDeadlineSeconds=5", "callDeadlineSeconds=86400", "callDeadlineSeconds=nan",
        ])
    func networkBounds(setting: String) throws {
        let parts = setting.split(separator: "=").map(String.init)
        var configuration = EngageConfiguration.preset(.production, appID: "com.example.shop")
        switch parts[0] {
        case "maxResponseBytes": configuration.network.maxResponseBytes = try #require(Int(parts[1]))
        case "retryMaxDelaySeconds": configuration.network.retryMaxDelaySeconds = try #require(Double(parts[1]))
        case "callDeadlineSeconds": configuration.network.callDeadlineSeconds = try #require(Double(parts[1]))  // 5 < timeoutSeconds 30
        default: configuration.network.retryBaseDelaySeconds = try #require(Double(parts[1]))
        }
        let issues = configuration.network.validationIssues()
        #expect(issues.contains { $0.contains(parts[0]) }, "\(issues)")
        #expect(throws: EngageError.self) { try configuration.validate() }
    }

    @Test(
        "analytics settings out of range are named",
        arguments: [
            ("maxPendingEvents", #"{"maxPendingEvents": 9223372036854775807}"#),
            ("maxStoredBytes", #"{"maxStoredBytes": 9223372036854775807}"#),
            ("maxStoredBytes", #"{"maxStoredBytes": -1}"#),
            ("flushInterval", #"{"flushIntervalSeconds": 1e300}"#),
            ("maxEventAge", #"{"maxEventAgeDays": 100000}"#),
            ("maxEventAge", #"{"maxEventAgeDays": -3}"#),
        ])
    func analyticsBounds(field: String, json: String) throws {
        let settings = try JSONDecoder().decode(AnalyticsSettings.self, from: Data(json.utf8))
        let issues = settings.validationIssues()
        #expect(issues.contains { $0.contains(field) }, "\(issues)")
    }

    @Test("a settings file from an earlier version (maxAttempts) still decodes, with the new defaults")
    func earlierAnalyticsKeysAreIgnored() throws {
        let settings = try JSONDecoder().decode(AnalyticsSettings.self, from: Data(#"{"maxAttempts": 3, "batchSize": 20}"#.utf8))
        #expect(settings.batchSize == 20)
        #expect(settings.maxEventAgeDays == 30)
        #expect(settings.validationIssues().isEmpty)
    }

    @Test(
        "session settings out of range are named",
        arguments: [
            "breakerFailureThreshold=0", "breakerFailureThreshold=9223372036854775807", "refreshTimeoutSeconds=inf",
            "proactiveRefreshSeconds=-1",
        ])
    func authBounds(setting: String) throws {
        let parts = setting.split(separator: "=").map(String.init)
        var configuration = EngageConfiguration.preset(.production, appID: "com.example.shop")
        switch parts[0] {
        case "breakerFailureThreshold": configuration.auth.breakerFailureThreshold = try #require(Int(parts[1]))
        case "refreshTimeoutSeconds": configuration.auth.refreshTimeoutSeconds = try #require(Double(parts[1]))
        default: configuration.auth.proactiveRefreshSeconds = try #require(Double(parts[1]))
        }
        #expect(throws: EngageError.self) { try configuration.validate() }
    }
}
