@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) import EngageYoull
import Foundation
import Testing
import YoullEmulator

@Suite("Youll emulator: state view and reset")
struct YoullEmulatorInspectionTests {
    @Test("a like and a timer session show in the state view; reset forgets them")
    func inspectAndReset() async throws {
        let harness = try await YoullHarness.make()
        harness.youll.setSession(harness.userSession("u-1"))
        _ = try await harness.youll.perform(.like(contentID: "c-005"))
        try await harness.youll.perform(.timerSession(contentID: "c-001", duration: .seconds(600), completed: true))

        let view = harness.emulator.inspect()
        #expect(view.tables.first { $0.title == "Likes" }?.rows == [["u-1", "c-005"]])
        #expect(view.tables.first { $0.title == "Timer sessions" }?.rows == [["u-1", "c-001", "600", "yes"]])
        #expect(view.tables.allSatisfy { table in table.rows.allSatisfy { $0.count == table.columns.count } })

        harness.emulator.reset()
        #expect(harness.emulator.inspect().tables.allSatisfy { $0.rows.isEmpty })
        #expect(harness.emulator.likes(of: "u-1").isEmpty)
        await harness.stop()
    }
}
