@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageSovendus
import Foundation
import SovendusEmulator
import EngageTestTraits
import Testing

@Suite("Sovendus emulator: state view and reset", .bounded)
struct SovendusEmulatorInspectionTests {
    @Test("a redemption shows in the state view with its coupon code by the last four; reset forgets it")
    func inspectAndReset() async throws {
        let harness = try await SovendusHarness.make()
        _ = try await harness.sovendus.redeemCoupon(for: SovendusFixtures.order, consumer: try SovendusFixtures.consumer())

        let view = harness.emulator.inspect()
        let redemptions = try #require(view.tables.first { $0.title == "Redemptions" }?.rows)
        #expect(redemptions.count == 1)
        let expected = ["Order-123", "120.50", "EUR", "•••• ME10", "23463b99b62a72f26ed677cc556c44e8"]
        #expect(redemptions.first.map { Array($0.prefix(5)) } == expected)
        let cells = view.tables.flatMap { $0.rows.flatMap { $0 } }
        #expect(!cells.contains { $0.contains("WELCOME10") })
        #expect(view.tables.allSatisfy { table in table.rows.allSatisfy { $0.count == table.columns.count } })

        harness.emulator.reset()
        #expect(harness.emulator.inspect().tables.allSatisfy { $0.rows.isEmpty })
        #expect(harness.emulator.redemptions.isEmpty)
        await harness.stop()
    }
}
