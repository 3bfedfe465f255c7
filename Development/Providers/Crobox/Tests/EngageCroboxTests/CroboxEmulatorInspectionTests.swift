@_spi(EngageProvider) @testable import EngageCore
import CroboxEmulator
@_spi(EngageProvider) @testable import EngageCrobox
@_spi(EngageProvider) import EngageSandbox
import Foundation
import EngageTestTraits
import Testing

@Suite("Crobox emulator: state view and reset", .bounded)
struct CroboxEmulatorInspectionTests {
    @Test("events, an error report and a promotions request show in the state view, newest first; reset forgets them")
    func inspectAndReset() async throws {
        try await CroboxEmulatorHarness.run { harness async throws in
            #expect(try await harness.event("cid=xlrc9t&t=pageview&pi=sku-1").status == 200)
            #expect(try await harness.event("cid=xlrc9t&t=error&nm=Timeout&msg=promotions%20failed").status == 200)
            #expect(try await harness.promotions(productIDs: ["sku-1", "sku-2"]).status == 200)

            let view = harness.emulator.inspect()
            let events = try #require(view.tables.first { $0.title == "Events" })
            #expect(events.rows.map { $0[1] } == ["error", "pageview"])
            let errors = try #require(view.tables.first { $0.title == "Error reports" })
            #expect(errors.rows.count == 1)
            #expect(errors.rows.first?[2] == "Timeout" && errors.rows.first?[3] == "promotions failed")
            let requests = try #require(view.tables.first { $0.title == "Promotion requests" })
            #expect(requests.rows.first?.last == "sku-1, sku-2")
            #expect(view.tables.first { $0.title == "Sessions" }?.rows.count == 1)
            #expect(view.tables.allSatisfy { table in table.rows.allSatisfy { $0.count == table.columns.count } })

            harness.emulator.reset()
            #expect(harness.emulator.inspect().tables.allSatisfy { $0.rows.isEmpty })
        }
    }
}
