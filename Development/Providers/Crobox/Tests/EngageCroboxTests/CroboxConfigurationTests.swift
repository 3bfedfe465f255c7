@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageCrobox
import Foundation
import EngageTestTraits
import Testing

@Suite("Crobox configuration and pages", .bounded)
struct CroboxConfigurationTests {
    @Test("JSON needs only the container id")
    func minimalJSON() throws {
        let configuration = try JSONDecoder().decode(CroboxConfiguration.self, from: Data(#"{"containerID":"xlrc9t"}"#.utf8))
        #expect(configuration.baseURL == CroboxConfiguration.defaultBaseURL)
        #expect(configuration.dialect == .iOS)
        #expect(configuration.validationIssues().isEmpty)
    }

    @Test(
        "invalid settings are named",
        arguments: [
            (CroboxConfiguration(containerID: ""), "containerID"),
            (CroboxConfiguration(containerID: "a b"), "containerID"),
            (CroboxConfiguration(containerID: "x", locale: "en-US"), "locale"),
            (CroboxConfiguration(containerID: "x", locale: "EN_us"), "locale"),
            (CroboxConfiguration(containerID: "x", currency: "euro"), "currency"),
            (CroboxConfiguration(containerID: "x", timezoneOffsetHours: 20), "timezoneOffsetHours"),
        ])
    func invalid(configuration: CroboxConfiguration, field: String) {
        let issues = configuration.validationIssues()
        #expect(issues.count == 1)
        #expect(issues.first?.contains(field) == true)
    }

    @Test("valid locales", arguments: ["en_US", "el_GR", "de", "fil_PH"])
    func locales(locale: String) {
        #expect(CroboxConfiguration(containerID: "x", locale: locale).validationIssues().isEmpty)
    }

    @Test("1000 concurrent requests from one page take the counter values 0...999 exactly once")
    func concurrentCounter() async {
        let page = CroboxPage(pageType: .detail)
        let values = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<1000 { group.addTask { page.nextEventIndex() } }
            var values: [Int] = []
            for await value in group { values.append(value) }
            return values
        }
        #expect(values.sorted() == Array(0..<1000))
        #expect(page.requestCount == 1000)
    }
}
