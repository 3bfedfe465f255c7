@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageExploreCTX
@_spi(EngageProvider) @testable import EngageExploreGiftCards
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import Observation
import EngageTestTraits
import Testing

/// `explore.directoryModel` and its paged merchant lists, end to end against the feed emulator.
@MainActor
@Suite("Explore's observable directory and merchant list", .serialized, .bounded)
struct ExploreDirectoryModelTests {
    @Test("the model shows every sync: running, its progress, what it installed, and a failure")
    func theModelFollowsSyncs() async throws {
        let harness = try await ExploreFeedHarness()
        try harness.publish(timestamp: 1_000)
        let (engage, explore) = try await harness.start()
        let model = explore.directoryModel
        #expect(explore.directoryModel === model)
        #expect(model.installed == nil && !model.isSyncing && model.network == .mainnet)

        // A sync the app did not start through the model (the provider's own call) shows too.
        let syncingSeen = Locked(false)
        try await explore.sync { step in
            if step.phase == .downloading, explore.directoryStatus.value.isSyncing { syncingSeen.withLock { $0 = true } }
        }
        #expect(syncingSeen.value)
        #expect(await waitUntil { model.installed?.timestamp == 1_000 })
        #expect(model.progress?.phase == .finished && !model.isSyncing && model.lastError == nil)
        guard case .installed(timestamp: 1_000, previousTimestamp: nil, _) = model.lastOutcome else {
            Issue.record("unexpected outcome \(String(describing: model.lastOutcome))")
            return
        }

        // Up to date: the model says so and keeps what is installed.
        await model.sync()
        #expect(await waitUntil { model.lastOutcome == .upToDate(timestamp: 1_000) })

        // Another network with nothing published: the sync fails, nothing is installed there.
        explore.selectNetwork(.testnet)
        #expect(await waitUntil { model.network == .testnet })
        await model.sync()
        #expect(await waitUntil { model.lastError != nil })
        #expect(model.installed == nil && !model.isSyncing)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("the iOS 16 form: the directory's and a merchant list's updates deliver each change as a snapshot")
    func updatesFollowTheDirectory() async throws {
        let harness = try await ExploreFeedHarness()
        try harness.publish(timestamp: 1_000)
        let (engage, explore) = try await harness.start()
        let model = explore.directoryModel
        var directory = model.updates.makeAsyncIterator()
        #expect(await directory.next()?.installed == nil)
        await model.sync()
        var installed: ExploreDirectoryModel.Snapshot?
        while installed == nil, let snapshot = await directory.next() {
            if snapshot.installed?.timestamp == 1_000, !snapshot.isSyncing { installed = snapshot }
        }
        #expect(installed?.lastError == nil && installed?.network == .mainnet)

        let list = model.merchants(pageSize: 10)
        var pages = list.updates.makeAsyncIterator()
        #expect(await pages.next()?.merchants.isEmpty == true)
        await list.loadMore()
        var loaded: ExploreMerchantList.Snapshot?
        while loaded == nil, let snapshot = await pages.next() {
            if !snapshot.merchants.isEmpty, !snapshot.isLoading { loaded = snapshot }
        }
        #expect(loaded?.merchants == list.merchants && loaded?.merchants.count == 10 && loaded?.hasMore == true)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("engage.explore.directoryModel is there before the providers started, shows the configured network, then follows the directory")
    func theFacadesModelIsReadBeforeTheStart() async throws {
        let harness = try await ExploreFeedHarness()
        try harness.publish(timestamp: 1_000)
        var configuration = EngageConfiguration.preset(.testing, appID: "org.engagekit.explore-tests")
        configuration.network.timeoutSeconds = 20
        configuration.storage = .inMemory
        var explore = harness.exploreConfiguration()
        explore.network = .testnet
        explore.syncsAutomatically = false
        try configuration.add(.explore(explore))
        let environment = RegistryEnvironment(clock: harness.clock, random: SeededRandomSource(seed: 5), secretStore: InMemorySecretStore())
        // Returns at once: the provider starts in the background.
        let engage = try Engage(configuration: configuration, environment: environment)
        let model = engage.explore.directoryModel
        #expect(engage.explore.directoryModel === model && model.network == .testnet && model.installed == nil)
        let provider = try await engage.provider(ExploreProvider.self)
        #expect(provider.directoryModel === model)
        provider.selectNetwork(.mainnet)
        #expect(await waitUntil { model.network == .mainnet })
        await model.sync()
        #expect(await waitUntil { model.installed?.timestamp == 1_000 })
        await engage.shutdown()
        await harness.stop()
    }

    @Test("a merchant list pages on demand, searches, and starts over when a new directory is installed")
    func theListPagesAndReloads() async throws {
        guard #available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *) else { return }  // Observation
        let harness = try await ExploreFeedHarness()
        try harness.publish(timestamp: 1_000)
        let (engage, explore) = try await harness.start()
        try await explore.sync()
        let list = explore.directoryModel.merchants(pageSize: 100)
        #expect(list.merchants.isEmpty && list.hasMore)

        await list.loadMore()
        let total = try #require(try await explore.merchants(ExploreMerchantQuery()).totalCount)
        #expect(list.merchants.count == 100 && list.totalCount == total && list.lastError == nil && !list.isLoading)
        let firstPage = try await explore.merchants(ExploreMerchantQuery(page: PageRequest(limit: 100)))
        #expect(list.merchants == firstPage.items)

        // Near the end another page comes; near the start nothing is loaded.
        let firstMerchant = try #require(list.merchants.first)
        await list.loadMoreIfNeeded(after: firstMerchant)
        #expect(list.merchants.count == 100)
        let lastMerchant = try #require(list.merchants.last)
        await list.loadMoreIfNeeded(after: lastMerchant)
        #expect(list.merchants.count == 200 && Set(list.merchants.map(\.merchantID)).count == 200)

        // Concurrent calls load one page, not two.
        async let one: Void = list.loadMore()
        async let two: Void = list.loadMore()
        _ = await (one, two)
        #expect(list.merchants.count == 300)

        // A search starts over with the matches.
        let coffee = ExploreMerchantQuery(text: "coffee")
        await list.search(coffee)
        let matches = try await explore.merchants(ExploreMerchantQuery(text: "coffee", page: PageRequest(limit: 100)))
        #expect(list.merchants == matches.items && list.totalCount == matches.totalCount && list.query.text == "coffee")

        // A newer directory: the list loads its first page again, from the new rows.
        try harness.publish(rows: 1_500, seed: 22, timestamp: 2_000)
        let changed = TestCounter()
        withObservationTracking {
            _ = list.merchants
        } onChange: {
            changed.increment()
        }
        try await explore.sync()
        #expect(await waitUntil { changed.count == 1 })
        let fresh = try await explore.merchants(ExploreMerchantQuery(text: "coffee", page: PageRequest(limit: 100)))
        #expect(await waitUntil { list.merchants == fresh.items && !list.isLoading })
        #expect(list.totalCount == fresh.totalCount)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("the list reports a failed page, loads it again after an install or when asked; an idle list stays idle")
    func aFailedPageIsRetried() async throws {
        let harness = try await ExploreFeedHarness()
        try harness.publish(timestamp: 1_000)
        let (engage, explore) = try await harness.start()
        let list = explore.directoryModel.merchants(pageSize: 10)
        await list.loadMore()  // nothing installed yet
        #expect(list.lastError != nil && list.merchants.isEmpty && list.hasMore)
        // The install makes the list start over on its own, since it had been asked for a page.
        try await explore.sync()
        #expect(await waitUntil { list.lastError == nil && list.merchants.count == 10 && !list.isLoading })
        await list.loadMore()
        #expect(list.merchants.count == 20)

        // A list nobody asked for a page loads nothing on an install.
        let idle = explore.directoryModel.merchants(pageSize: 10)
        try harness.publish(rows: 1_500, seed: 22, timestamp: 2_000)
        try await explore.sync()
        #expect(await waitUntil { list.merchants.count == 10 && !list.isLoading })  // the used list started over
        #expect(idle.merchants.isEmpty && idle.totalCount == nil)
        await engage.shutdown()
        await harness.stop()
    }
}
