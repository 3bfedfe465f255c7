@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import Observation
import EngageTestTraits
import Testing

/// Reads `updates` until a snapshot satisfies `condition`, and returns it (`nil` if the sequence ended).
private func first(
    _ updates: inout AsyncStream<EngageStateSnapshot>.Iterator, where condition: (EngageStateSnapshot) -> Bool
) async -> EngageStateSnapshot? {
    while let snapshot = await updates.next() {
        if condition(snapshot) { return snapshot }
    }
    return nil
}

@Suite("Engage state: snapshots and the observable object", .bounded(deadline: .seconds(120)), .bounded)
struct EngageStateTests {
    func makeEngage(alphaFails: Bool = false) throws -> Engage {
        try Engage(
            configuration: testConfiguration(),
            providers: [
                .provider(AlphaProvider.self, configuration: ScriptedConfiguration(failStart: alphaFails)),
                .provider(BetaProvider.self, configuration: ScriptedConfiguration()),
            ],
            environment: testEnvironment())
    }

    @Test("snapshots follow readiness and each provider's start, the user, the analytics choice")
    func snapshots() async throws {
        let engage = try makeEngage(alphaFails: true)
        var updates = engage.stateUpdates.makeAsyncIterator()
        let ready = await first(&updates) { $0.isReady }
        #expect(ready?.startedProviders == ["beta"])
        #expect(ready?.failedProviders["alpha"] != nil)
        #expect(engage.currentState.isReady)

        let second = try makeEngage(alphaFails: false)
        var more = second.stateUpdates.makeAsyncIterator()
        _ = await first(&more) { $0.isReady }
        _ = try await second.logIn(UserIdentity(userID: "u-1", email: "ana@example.com"))
        #expect(await first(&more) { $0.user != nil }?.user?.userID == "u-1")
        try await second.setAnalyticsEnabled(false)
        #expect(await first(&more) { !$0.isAnalyticsEnabled } != nil)
        _ = try await second.logOut()
        #expect(await first(&more) { $0.user == nil }?.isAnalyticsEnabled == false)
        await engage.shutdown()
        await second.shutdown()
    }

    @Test("pending counts per provider follow the queue: stored, then purged")
    func pendingCounts() async throws {
        let engage = try makeEngage()
        _ = await engage.waitUntilReady()
        var updates = engage.stateUpdates.makeAsyncIterator()
        // No deliverer for these destinations: the events stay queued.
        _ = try await engage.registry.analytics.enqueue(Data(#"{"n":1}"#.utf8), destination: "alpha.events")
        _ = try await engage.registry.analytics.enqueue(Data(#"{"n":2}"#.utf8), destination: "alpha.other")
        _ = try await engage.registry.analytics.enqueue(Data(#"{"n":3}"#.utf8), destination: "beta.events")
        let stored = await first(&updates) { $0.pendingEventCount == 3 }
        #expect(stored?.pendingEvents == ["alpha": 2, "beta": 1])
        try await engage.registry.analytics.purge(provider: "alpha")
        #expect(await first(&updates) { $0.pendingEventCount == 1 }?.pendingEvents == ["beta": 1])
        await engage.shutdown()
    }

    @Test("every sequence ends when the instance shuts down; one made after ends at once")
    func endsAtShutdown() async throws {
        let engage = try makeEngage()
        var updates = engage.stateUpdates.makeAsyncIterator()
        _ = await first(&updates) { $0.isReady }
        await engage.shutdown()
        #expect(await first(&updates) { _ in true } == nil)
        var late = engage.stateUpdates.makeAsyncIterator()
        #expect(await late.next() == nil)
    }

    @Test("the observable state is one object per instance, and observers are told when a property they read changes")
    func observable() async throws {
        let engage = try makeEngage()
        let state = await engage.state
        #expect(await engage.state === state)
        await eventually { await state.isReady }
        #expect(await state.startedProviders == ["alpha", "beta"])

        let userChanged = TestGate()
        await MainActor.run {
            withObservationTracking {
                _ = state.user
            } onChange: {
                userChanged.open()
            }
        }
        _ = try await engage.logIn(UserIdentity(userID: "u-9"))
        await userChanged.wait()
        await eventually { await state.user?.userID == "u-9" }
        #expect(await state.snapshot == engage.currentState)
        await engage.shutdown()
    }
}
