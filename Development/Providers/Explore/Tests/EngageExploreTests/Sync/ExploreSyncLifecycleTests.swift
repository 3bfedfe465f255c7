@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageExploreCTX
@_spi(EngageProvider) @testable import EngageExploreGiftCards
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
import ExploreEmulator
import Foundation
import Logging
import EngageTestTraits
import Testing

/// Openings and installs never step on each other; a sync's callers can leave; shutdown stops a sync;
/// an interrupted sync leaves nothing behind at the next start.
@Suite("Explore sync lifecycle", .serialized, .bounded(deadline: .seconds(120)), .bounded)
struct ExploreSyncLifecycleTests {
    /// A provider over a directory installed by an earlier instance: nothing is opened yet.
    private func installedThenRestarted(_ harness: ExploreFeedHarness) async throws -> (Engage, ExploreProvider) {
        try harness.publish(timestamp: 1_000)
        let storage = StorageLocation.directory(harness.folder.appendingPathComponent("engage").path)
        let (first, provider) = try await harness.start(storage: storage)
        try await provider.sync()
        await first.shutdown()
        return try await harness.start(storage: storage)
    }

    @Test("a first open that finishes after an install never replaces the installed directory")
    func staleOpeningIsDiscarded() async throws {
        let harness = try await ExploreFeedHarness()
        let (engage, provider) = try await installedThenRestarted(harness)
        let store = provider.store(for: .mainnet)
        let held = TestGate()
        store.afterOpening.withLock { $0 = { await held.pass() } }
        let firstQuery = Task { try await provider.merchants(ExploreMerchantQuery()) }
        try await eventuallyTrue("the first opening read the installed file") { await held.arrivals == 1 }

        // Meanwhile an install adopts another directory (what a sync does last).
        let (newer, _) = try ExploreFixture.shared(rows: 1_500, seed: 22)
        let adopted = try ExploreDirectory.open(path: newer.path, indexPath: harness.folder.appendingPathComponent("newer.index").path)
        await store.adopt(adopted)
        await held.open()
        _ = try await firstQuery.value
        #expect(try await store.directory() === adopted, "the stale opening replaced the installed directory")
        await engage.shutdown()
        await harness.stop()
    }

    @Test("a sync waits for an opening in progress before it renames files; the new directory is then served")
    func installWaitsForOpening() async throws {
        let harness = try await ExploreFeedHarness()
        let (engage, provider) = try await installedThenRestarted(harness)
        try harness.publish(rows: 1_500, seed: 22, timestamp: 2_000)
        let store = provider.store(for: .mainnet)
        let held = TestGate()
        store.afterOpening.withLock { $0 = { await held.pass() } }
        let firstQuery = Task { try await provider.merchants(ExploreMerchantQuery()) }
        try await eventuallyTrue("the first opening read the installed file") { await held.arrivals == 1 }
        let installing = Locked(false)
        let sync = Task { try await provider.sync { if $0.phase == .installing { installing.withLock { $0 = true } } } }
        try await eventuallyTrue("the sync reached its install") { installing.value }
        #expect(try await provider.syncState()?.timestamp == 1_000, "the install must wait for the opening")
        store.afterOpening.withLock { $0 = nil }
        await held.open()
        let old = try await firstQuery.value
        guard case .installed(timestamp: 2_000, _, _) = try await sync.value else {
            Issue.record("the newer directory was not installed")
            return
        }
        let new = try await provider.merchants(ExploreMerchantQuery())
        #expect(new.totalCount != old.totalCount)
        // Every row id of the served index points into the installed file: details resolve for all.
        let all = try await provider.merchants(ExploreMerchantQuery(page: PageRequest(limit: PageRequest.maxLimit)))
        #expect(all.items.allSatisfy { !$0.name.isEmpty })
        await engage.shutdown()
        await harness.stop()
    }

    /// A sync whose archive download the feed holds (at `gate`) until the test opens it.
    private func heldSync() async throws -> (TestGate, ExploreFeedHarness, Engage, Task<ExploreSyncOutcome, any Error>) {
        let gate = TestGate()
        let harness = try await ExploreFeedHarness(gate: gate)
        let manifest = try harness.publish(timestamp: 1_000)
        _ = harness.host.faults.inject(FaultRule(.delay(.seconds(3_600)), emulatorID: "explore-feed", path: "/mainnet/\(manifest.archive)"))
        let (engage, provider) = try await harness.start()
        let caller = Task { try await provider.sync() }
        try await eventuallyTrue("the download is held at the feed") { await gate.arrivals == 1 }
        return (gate, harness, engage, caller)
    }

    @Test("a cancelled sync caller returns at once; the download stops when its last caller has left")
    func cancelledCallerStopsTheDownload() async throws {
        let (gate, harness, engage, caller) = try await heldSync()
        #expect(harness.leftovers().count == 1)
        caller.cancel()
        let error = await engageError { _ = try await caller.value }
        #expect(error?.code == .cancelled)
        // The sync itself was cancelled: its download folder is gone.
        try await eventuallyTrue("the abandoned sync removed its files") { harness.leftovers().isEmpty }
        await gate.open()
        await engage.shutdown()
        await harness.stop()
    }

    /// Before, only the stores made before the shutdown were shut down: a network selected afterwards
    /// got a new store, and its sync downloaded and installed a directory after the provider had stopped.
    @Test("after shutdown no sync starts, on the selected network or on another one")
    func noSyncAfterShutdown() async throws {
        let harness = try await ExploreFeedHarness()
        try harness.publish(rows: 500, seed: 3, timestamp: 1_000)
        let (engage, provider) = try await harness.start()
        await engage.shutdown()
        for network in [ExploreNetwork.mainnet, .testnet] {
            provider.selectNetwork(network)
            let error = await engageError { _ = try await provider.sync() }
            #expect(error?.code == .cancelled, "\(network): \(String(describing: error))")
        }
        #expect(harness.host.journal.entries(for: "explore-feed").isEmpty, "a sync reached the feed after the shutdown")
        await harness.stop()
    }

    @Test("shutdown stops a sync in progress and removes its files")
    func shutdownStopsSync() async throws {
        let (gate, harness, engage, caller) = try await heldSync()
        await engage.shutdown()
        #expect(harness.leftovers().isEmpty)
        let error = await engageError { _ = try await caller.value }
        #expect(error?.code == .cancelled)
        await gate.open()
        await harness.stop()
    }

    @Test("leftovers of a sync killed mid-way (download folders, half-built indexes) are removed at start")
    func orphansSweptAtStart() async throws {
        let harness = try await ExploreFeedHarness()
        let network = harness.clientFolder.appendingPathComponent("mainnet", isDirectory: true)
        let incoming = network.appendingPathComponent("incoming-deadbeef", isDirectory: true)
        try FileManager.default.createDirectory(at: incoming, withIntermediateDirectories: true)
        try Data(count: 1_024).write(to: incoming.appendingPathComponent("archive.zip"))
        let building = network.appendingPathComponent("explore.db.index.building-1234abcd")
        try Data(count: 1_024).write(to: building)
        let fixedBuilding = harness.clientFolder.appendingPathComponent("fixed-0011223344556677.index.building-cafebabe")
        try Data(count: 1_024).write(to: fixedBuilding)
        let kept = network.appendingPathComponent("explore.db")
        try Data("keep".utf8).write(to: kept)

        let (engage, _) = try await harness.start()
        #expect(harness.leftovers().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: building.path))
        #expect(!FileManager.default.fileExists(atPath: fixedBuilding.path))
        #expect(FileManager.default.fileExists(atPath: kept.path), "an installed file is not an orphan")
        await engage.shutdown()
        await harness.stop()
    }
}
