@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageWarply
import Foundation
import EngageTestTraits
import Testing
import WarplyEmulator

@Suite("Warply emulator: state view and reset", .bounded)
struct WarplyEmulatorInspectionTests {
    @Test("a login shows the user, the device's registration (last four only) and the coupons; reset forgets them")
    func inspectAndReset() async throws {
        let harness = try await WarplyHarness(signing: .deviceRegistration)
        let (engage, _) = try await harness.loggedIn(email: "maria@example.gr")

        let view = harness.emulator.inspect()
        let users = try #require(view.tables.first { $0.title == "Users" })
        let maria = try #require(users.rows.first)
        #expect(users.rows.count == 1)
        #expect(maria[0] == "maria@example.gr" && maria[4] == "yes")
        #expect(maria[2] == String(harness.emulator.profile(forEmail: "maria@example.gr")?.points ?? -1))
        let registrations = try #require(view.tables.first { $0.title == "Registrations" })
        #expect(registrations.rows.count == harness.emulator.registrationCount && !registrations.rows.isEmpty)
        #expect(registrations.rows.allSatisfy { $0[0].hasPrefix("•••• ") && $0[0].count == 9 })
        let coupons = try #require(view.tables.first { $0.title == "Coupons" })
        let stored = harness.emulator.coupons(forEmail: "maria@example.gr")
        #expect(coupons.rows.count == stored.count && !stored.isEmpty)
        // Codes show by their last four only.
        #expect(coupons.rows.allSatisfy { $0[2].hasPrefix("•••• ") })
        let cells = Set(view.tables.flatMap { $0.rows.flatMap { $0 } })
        #expect(stored.allSatisfy { coupon in coupon.code.map { !cells.contains($0) } ?? true })
        #expect(view.tables.allSatisfy { table in table.rows.allSatisfy { $0.count == table.columns.count } })

        harness.emulator.reset()
        let after = harness.emulator.inspect()
        for title in ["Users", "Registrations", "Devices", "Coupons", "Analytics events"] {
            #expect(after.tables.first { $0.title == title }?.rows.isEmpty == true, "\(title)")
        }
        #expect(harness.emulator.registrationCount == 0)
        await engage.shutdown()
        await harness.stop()
    }
}
