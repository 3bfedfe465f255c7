@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageExploreCTX
@_spi(EngageProvider) @testable import EngageExploreGiftCards
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import EngageTestTraits
import Testing

@Suite("Explore provider contract", .bounded)
struct ExploreContractTests {
    @Test("the provider passes the conformance suite against its feed emulator, syncing and querying the directory")
    func conformance() async throws {
        let harness = try await ExploreFeedHarness()
        try harness.publish(rows: 500, timestamp: 1_763_000_000)
        let report = await ProviderConformanceSuite(
            ExploreProvider.self,
            configuration: harness.exploreConfiguration(),
            invalidConfiguration: harness.exploreConfiguration { $0.syncIntervalSeconds = 1 },
            operationProbe: { provider in
                _ = try await provider.sync()
                let page = try await provider.merchants(ExploreMerchantQuery())
                #expect(!page.items.isEmpty)
            }
        ).run()
        #expect(report.failures.isEmpty, "\(report)")
        await harness.stop()
    }
}
