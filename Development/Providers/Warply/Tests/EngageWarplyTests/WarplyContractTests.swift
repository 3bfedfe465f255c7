@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageWarply
import Foundation
import EngageTestTraits
import Testing

@Suite("Warply provider contract", .bounded)
struct WarplyContractTests {
    @Test("the provider passes the conformance suite against its emulator, logging in and reading the profile")
    func conformance() async throws {
        let harness = try await WarplyHarness()
        let report = await ProviderConformanceSuite(
            WarplyProvider.self,
            configuration: harness.warplyConfiguration(),
            invalidConfiguration: harness.warplyConfiguration { $0.appUUID = "not-a-warply-app-uuid" },
            secrets: ["maria@example.gr", "s3cret"],
            operationProbe: { provider in
                try await provider.logIn(deiEmail: "maria@example.gr")
                _ = try await provider.profile()
            }
        ).run()
        #expect(report.failures.isEmpty, "\(report)")
        await harness.stop()
    }
}
