@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageExploreCTX
@_spi(EngageProvider) @testable import EngageExploreGiftCards
import Foundation
import EngageTestTraits
import Testing

@Suite("Explore configuration bounds", .bounded)
struct ExploreConfigurationBoundsTests {
    @Test("sizes and intervals that would overflow or wait for years are refused, each named")
    func hugeValuesAreRefused() {
        let configuration = ExploreConfiguration(
            syncIntervalSeconds: 1e18, syncRetrySeconds: .infinity, maxArchiveMegabytes: .max, maxDatabaseMegabytes: Int.max / 1024
        )
        let issues = configuration.validationIssues()
        for field in ["syncIntervalSeconds", "syncRetrySeconds", "maxArchiveMegabytes", "maxDatabaseMegabytes"] {
            #expect(issues.contains { $0.contains(field) }, "\(field): \(issues)")
        }
        #expect(ExploreConfiguration(maxArchiveMegabytes: 4_096, maxDatabaseMegabytes: 16_384).validationIssues().isEmpty)
    }
}
