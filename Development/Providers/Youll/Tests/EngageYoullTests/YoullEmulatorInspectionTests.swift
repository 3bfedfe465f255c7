@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageYoull
import Foundation
import EngageTestTraits
import Testing
import YoullEmulator

@Suite("Youll emulator: state view and reset", .bounded)
struct YoullEmulatorInspectionTests {
    @Test("likes, timer sessions, reviews, badges, tracking sessions and views show in the state view; reset forgets them")
    func inspectAndReset() async throws {
        let harness = try await YoullHarness.make()
        harness.youll.setSession(harness.userSession("u-1"))
        _ = try await harness.youll.perform(.like(contentID: "c-005"))
        try await harness.youll.perform(.timerSession(contentID: "c-001", duration: .seconds(600), completed: true))
        _ = try await harness.youll.perform(.review(contentID: "c-002", rating: 4))
        _ = try await harness.youll.perform(.earnBadge(id: "b-explorer"))
        let now = harness.clock.now
        try await harness.youll.perform(.trackingSession(YoullTrackingSession(id: "s-1", startedAt: now, endedAt: now)))
        _ = try await harness.youll.perform(.setViewedContent(contentID: "c-003"))

        let view = harness.emulator.inspect()
        #expect(view.tables.first { $0.title == "Likes" }?.rows == [["u-1", "c-005"]])
        #expect(view.tables.first { $0.title == "Timer sessions" }?.rows == [["u-1", "c-001", "600", "yes"]])
        #expect(view.tables.first { $0.title == "Reviews" }?.rows.map { Array($0.prefix(3)) } == [["c-002", "u-1", "4"]])
        let engagement = try #require(view.tables.first { $0.title == "Badges, tracking sessions, views" })
        #expect(
            engagement.rows.map { Array($0.prefix(3)) } == [
                ["u-1", "badge", "b-explorer"], ["u-1", "tracking session", "s-1"], ["u-1", "viewed", "c-003"],
            ])
        #expect(view.tables.allSatisfy { table in table.rows.allSatisfy { $0.count == table.columns.count } })

        harness.emulator.reset()
        #expect(harness.emulator.inspect().tables.allSatisfy { $0.rows.isEmpty })
        #expect(harness.emulator.likes(of: "u-1").isEmpty)
        await harness.stop()
    }
}
