@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageExploreCTX
@_spi(EngageProvider) @testable import EngageExploreGiftCards
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
import ExploreEmulator
import Foundation
@_spi(EngageProvider) @testable import EngageCore
import EngageTestTraits
import Testing

/// Syncing the directory from the feed emulator over a real socket: install, up to date, updates,
/// every failure mode (the good directory always survives), networks kept apart, single flight.
@Suite("Explore sync", .serialized, .bounded)
struct ExploreSyncTests {
    private func merchantCount(_ provider: ExploreProvider) async throws -> Int? {
        try await provider.merchants(ExploreMerchantQuery()).totalCount
    }

    @Test("a first sync downloads, verifies and installs with progress; the next one finds it up to date")
    func installThenUpToDate() async throws {
        let harness = try await ExploreFeedHarness()
        let manifest = try harness.publish(timestamp: 1_000)
        let (engage, provider) = try await harness.start()
        let missing = await #expect(throws: EngageError.self) { try await provider.merchants(ExploreMerchantQuery()) }
        #expect(missing?.code == .exploreDirectoryMissing)

        let reports = Locked<[ExploreSyncProgress]>([])
        let outcome = try await provider.sync { progress in reports.withLock { $0.append(progress) } }
        #expect(outcome == .installed(timestamp: 1_000, previousTimestamp: nil, archiveBytes: manifest.size))
        let progress = reports.withLock { $0 }
        let phases = progress.map(\.phase).reduce(into: [ExploreSyncProgress.Phase]()) { if $0.last != $1 { $0.append($1) } }
        #expect(phases == [.checking, .downloading, .verifying, .installing, .finished])
        let received = progress.filter { $0.phase == .downloading }.map(\.receivedBytes)
        #expect(received == received.sorted() && received.last == manifest.size)
        #expect(progress.last?.fractionCompleted == 1)

        let (fixture, _) = try ExploreFixture.shared(rows: 2_000, seed: 21)
        #expect(try await merchantCount(provider) == fixture.directory.merchants(ExploreMerchantQuery()).totalCount)
        let state = try #require(try await provider.syncState())
        #expect(state.timestamp == 1_000 && state.checksum == manifest.checksum && state.installedAt == harness.clock.now)

        harness.clock.advance(by: .seconds(60))
        #expect(try await provider.sync() == .upToDate(timestamp: 1_000))
        #expect(harness.feed.downloadCount(for: .mainnet) == 1)
        #expect(try await provider.syncState()?.checkedAt == harness.clock.now)
        #expect(harness.leftovers().isEmpty)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("a wall clock set back never postpones the next sync by the jump; set forward, the sync is due")
    func clockJumps() async throws {
        let harness = try await ExploreFeedHarness()
        try harness.publish(timestamp: 1_000)
        let (engage, provider) = try await harness.start(harness.exploreConfiguration { $0.syncIntervalSeconds = 86_400 })
        _ = try await provider.sync()
        #expect(try await provider.isSyncDue() == false)
        // The user sets the clock back a year: the last check now lies in the future, which says the
        // clock moved, not that the next sync is a year and a day away.
        harness.clock.set(to: harness.clock.now.addingTimeInterval(-365 * 86_400))
        #expect(try await provider.isSyncDue())
        #expect(try await provider.syncIfDue() == .upToDate(timestamp: 1_000))
        #expect(try await provider.isSyncDue() == false, "checked again on the new clock")
        // Forward past the interval: due.
        harness.clock.set(to: harness.clock.now.addingTimeInterval(86_400))
        #expect(try await provider.isSyncDue())
        await engage.shutdown()
        await harness.stop()
    }

    @Test("a newer timestamp installs the new directory; an older one is never installed")
    func newerReplacesOlder() async throws {
        let harness = try await ExploreFeedHarness()
        try harness.publish(timestamp: 1_000)
        let (engage, provider) = try await harness.start()
        try await provider.sync()
        let manifest = try harness.publish(rows: 1_000, seed: 22, timestamp: 2_000)
        #expect(try await provider.sync() == .installed(timestamp: 2_000, previousTimestamp: 1_000, archiveBytes: manifest.size))
        let (newer, _) = try ExploreFixture.shared(rows: 1_000, seed: 22)
        let newerCount = try newer.directory.merchants(ExploreMerchantQuery()).totalCount
        #expect(try await merchantCount(provider) == newerCount)
        try harness.publish(timestamp: 1_500)
        #expect(try await provider.sync() == .upToDate(timestamp: 2_000))
        #expect(try await merchantCount(provider) == newerCount)
        await engage.shutdown()
        await harness.stop()
    }

    /// A power loss after a rename whose file never reached the disk leaves a file of zeros where the
    /// directory was. Before, sync compared only timestamps and answered `.upToDate` for ever.
    @Test("a torn install (the installed file zero-filled) is found on open and at the next sync, and installed again")
    func tornInstallIsRepaired() async throws {
        let harness = try await ExploreFeedHarness()
        try harness.publish(timestamp: 1_000)
        let storage = StorageLocation.directory(harness.folder.appendingPathComponent("engage").path)
        let (engage, provider) = try await harness.start(storage: storage)
        try await provider.sync()
        let good = try await merchantCount(provider)
        await engage.shutdown()

        let installed = harness.clientFolder.appendingPathComponent("mainnet/explore.db")
        let size = try #require((try FileManager.default.attributesOfItem(atPath: installed.path))[.size] as? NSNumber).intValue
        try Data(count: size).write(to: installed)

        let (restarted, again) = try await harness.start(storage: storage)
        let damaged = await #expect(throws: EngageError.self) { _ = try await again.merchants(ExploreMerchantQuery()) }
        #expect(damaged?.code == .exploreDirectoryMissing, "\(String(describing: damaged))")
        #expect(try await again.isSyncDue(), "the damaged directory makes a sync due at once")
        guard case .installed(timestamp: 1_000, _, _) = try await again.sync() else {
            Issue.record("the torn directory was reported up to date")
            return
        }
        #expect(try await merchantCount(again) == good)
        await restarted.shutdown()
        await harness.stop()
    }

    /// Before, a release that fails its checks was downloaded again, in full, at every sync (every hour,
    /// on any network).
    @Test("a release that fails its checks twice is not downloaded again for 6 hours, then 12; a new release at once")
    func badReleaseBacksOff() async throws {
        let harness = try await ExploreFeedHarness()
        try harness.publish(timestamp: 1_000)
        let (engage, provider) = try await harness.start()
        try await provider.sync()
        let bad = try harness.publish(rows: 1_000, seed: 22, timestamp: 2_000)
        let archivePath = "/mainnet/\(bad.archive)"
        func downloads() -> Int { harness.host.journal.entries(for: "explore-feed").filter { $0.path == archivePath }.count }
        harness.feed.inject(.corrupted, network: .mainnet, times: 3)
        for attempt in 1...2 {
            let error = await #expect(throws: EngageError.self) { try await provider.sync() }
            #expect(error?.isRetryable == true, "attempt \(attempt): a transfer may have been damaged")
        }
        #expect(downloads() == 2)
        let refused = await #expect(throws: EngageError.self) { try await provider.sync() }
        #expect(refused?.code == .exploreDownloadInvalid && refused?.isRetryable == false, "\(String(describing: refused))")
        #expect(downloads() == 2, "the refused release was downloaded a third time")
        harness.clock.advance(by: .seconds(6 * 3_600 + 1))
        await #expect(throws: EngageError.self) { try await provider.sync() }
        #expect(downloads() == 3, "after 6 hours it is tried again")
        harness.clock.advance(by: .seconds(6 * 3_600 + 1))
        await #expect(throws: EngageError.self) { try await provider.sync() }
        #expect(downloads() == 3, "after a third refusal, 12 hours")
        // A new release is downloaded at once, and installs.
        try harness.publish(rows: 1_000, seed: 23, timestamp: 3_000)
        guard case .installed(timestamp: 3_000, _, _) = try await provider.sync() else {
            Issue.record("the new release was not installed")
            return
        }
        await engage.shutdown()
        await harness.stop()
    }

    @Test("truncated, corrupt, non-zip, empty and unreadable downloads and server errors never replace the good directory")
    func failuresKeepTheGoodDirectory() async throws {
        let harness = try await ExploreFeedHarness()
        try harness.publish(timestamp: 1_000)
        let (engage, provider) = try await harness.start()
        try await provider.sync()
        let good = try await merchantCount(provider)
        let goodState = try await provider.syncState()

        func expectFailure(_ code: EngageError.Code, _ label: String) async throws {
            let error = await #expect(throws: EngageError.self, "\(label)") { try await provider.sync() }
            #expect(error?.code == code, "\(label): \(String(describing: error))")
            #expect(try await merchantCount(provider) == good, "\(label)")
            #expect(try await provider.syncState() == goodState, "\(label)")
            #expect(harness.leftovers().isEmpty, "\(label)")
        }

        try harness.publish(rows: 1_000, seed: 22, timestamp: 2_000)
        harness.feed.inject(.truncated, network: .mainnet)
        try await expectFailure(.exploreDownloadInvalid, "truncated")
        harness.feed.inject(.corrupted, network: .mainnet)
        try await expectFailure(.exploreDownloadInvalid, "corrupted")
        _ = harness.host.faults.inject(
            FaultRule(
                .status(503), emulatorID: "explore-feed", method: "GET", path: "/mainnet/explore-mainnet-2000.zip", trigger: .times(5)))
        try await expectFailure(.httpStatus, "server error")
        harness.host.faults.removeAll()

        try harness.feed.publish(archive: Data("not a zip at all".utf8), network: .mainnet, timestamp: 3_000)
        try await expectFailure(.exploreDownloadInvalid, "not a zip")
        let notSQLite = harness.folder.appendingPathComponent("garbage.db")
        try Data(repeating: 0x5A, count: 50_000).write(to: notSQLite)
        try harness.feed.publish(databaseAt: notSQLite, network: .mainnet, timestamp: 4_000)
        try await expectFailure(.exploreDownloadInvalid, "not SQLite")
        let readme = harness.folder.appendingPathComponent("README.txt")
        try Data("hello".utf8).write(to: readme)
        try harness.feed.publish(
            archive: try ExploreFeedArchiver.zip(databaseAt: readme, in: harness.folder, entryName: "README.txt"), network: .mainnet,
            timestamp: 5_000
        )
        try await expectFailure(.exploreDownloadInvalid, "no database in the zip")

        // A good archive after all that installs normally.
        try harness.publish(rows: 1_000, seed: 22, timestamp: 6_000)
        #expect(
            try await provider.sync()
                == .installed(
                    timestamp: 6_000, previousTimestamp: 1_000, archiveBytes: try #require(try harness.feed.manifest(for: .mainnet)).size
                ))
        await engage.shutdown()
        await harness.stop()
    }

    @Test("each network has its own directory: switching never serves the other network's data")
    func networksKeptApart() async throws {
        let harness = try await ExploreFeedHarness()
        try harness.publish(timestamp: 1_000)
        try harness.publish(rows: 1_000, seed: 22, network: .testnet, timestamp: 1_000)
        let (engage, provider) = try await harness.start()
        try await provider.sync()
        let mainnet = try await merchantCount(provider)

        provider.selectNetwork(.testnet)
        let missing = await #expect(throws: EngageError.self) { try await provider.merchants(ExploreMerchantQuery()) }
        #expect(missing?.code == .exploreDirectoryMissing)
        try await provider.sync()
        let testnet = try await merchantCount(provider)
        #expect(testnet != mainnet)

        provider.selectNetwork(.mainnet)
        #expect(try await merchantCount(provider) == mainnet)
        #expect(harness.feed.downloadCount(for: .mainnet) == 1 && harness.feed.downloadCount(for: .testnet) == 1)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("concurrent syncs share one download and one outcome")
    func singleFlight() async throws {
        let harness = try await ExploreFeedHarness()
        try harness.publish(timestamp: 1_000)
        let (engage, provider) = try await harness.start()
        let outcomes = try await withThrowingTaskGroup(of: ExploreSyncOutcome.self) { group in
            for _ in 0..<6 { group.addTask { try await provider.sync() } }
            return try await group.reduce(into: [ExploreSyncOutcome]()) { $0.append($1) }
        }
        #expect(harness.feed.downloadCount(for: .mainnet) == 1)
        #expect(Set(outcomes.map { if case .installed = $0 { "installed" } else { "upToDate" } }).contains("installed"))
        #expect(outcomes.count == 6)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("an installed directory is served after a restart without the feed, its index not rebuilt")
    func survivesRestart() async throws {
        let harness = try await ExploreFeedHarness()
        try harness.publish(timestamp: 1_000)
        let storage = StorageLocation.directory(harness.folder.appendingPathComponent("engage").path)
        let (engage, provider) = try await harness.start(storage: storage)
        try await provider.sync()
        let count = try await merchantCount(provider)
        await engage.shutdown()
        let index = harness.clientFolder.appendingPathComponent("mainnet/explore.db.index").path
        let built = try FileManager.default.attributesOfItem(atPath: index)[.modificationDate] as? Date

        var offline = harness.exploreConfiguration()
        offline.feedURL = nil
        let (again, reopened) = try await harness.start(offline, storage: storage)
        #expect(try await merchantCount(reopened) == count)
        #expect(try await reopened.syncState()?.timestamp == 1_000)
        #expect(try FileManager.default.attributesOfItem(atPath: index)[.modificationDate] as? Date == built)
        let noFeed = await #expect(throws: EngageError.self) { try await reopened.sync() }
        #expect(noFeed?.code == .notConfigured)
        await again.shutdown()
        await harness.stop()
    }

    @Test("automatic syncs run at start and every interval on the injected clock; a failure is retried sooner")
    func schedule() async throws {
        let harness = try await ExploreFeedHarness()
        try harness.publish(timestamp: 1_000)
        let (engage, provider) = try await harness.start(
            harness.exploreConfiguration {
                $0.syncsAutomatically = true
                $0.syncRetrySeconds = 600
            })
        #expect(await eventually { (try? await provider.syncState())?.timestamp == 1_000 })
        let installed = harness.clock.now
        try harness.publish(rows: 1_000, seed: 22, timestamp: 2_000)
        harness.feed.inject(.corrupted, network: .mainnet)
        // The clock moves an hour per poll until the next check has started (24 h after the last
        // one), and no further: the failure, and the retry it schedules, happen at that time.
        #expect(
            await eventually {
                if harness.feed.downloadCount(for: .mainnet) == 2 { return true }
                harness.clock.advance(by: .seconds(3_600))
                return false
            })
        let failed = harness.clock.now
        #expect(failed.timeIntervalSince(installed) >= 86_400)
        #expect(try await provider.syncState()?.timestamp == 1_000, "the corrupt download was not installed")
        // The retry comes after syncRetrySeconds (600 s), not after another day.
        #expect(
            await eventually {
                harness.clock.advance(by: .seconds(60))
                return (try? await provider.syncState())?.timestamp == 2_000
            })
        let retried = harness.clock.now.timeIntervalSince(failed)
        #expect(retried >= 600 && retried < 86_400, "retried after \(retried) s")
        #expect(harness.feed.downloadCount(for: .mainnet) == 3)
        await engage.shutdown()
        await harness.stop()
    }

    /// Fails every request with "not connected" while `isOffline`, like a device without a network;
    /// `whileFailing` runs inside a refused request (before it fails).
    private final class SwitchableNetwork: HTTPTransport {
        let isOffline = Locked(true)
        let refused = Locked(0)
        let whileFailing = Locked<(@Sendable () -> Void)?>(nil)
        private let network = URLSessionTransport()

        func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
            if isOffline.value {
                refused.withLock { $0 += 1 }
                whileFailing.value?()
                throw URLError(.notConnectedToInternet)
            }
            return try await network.send(request)
        }
    }

    /// The connection came back while the sync was failing, before its schedule began to wait: the
    /// wait took its baseline from its own first update, which already held the comeback, so the sync
    /// waited for the next one (an hour on the retry timer; this test hung until its deadline).
    @Test(
        "a connection that comes back while the sync is failing still brings the retry at once",
        .bounded(deadline: .seconds(120)))
    func comebackDuringTheFailure() async throws {
        let harness = try await ExploreFeedHarness()
        try harness.publish(timestamp: 1_000)
        let network = SwitchableNetwork()
        let connectivity = Connectivity.manual(.online)
        network.whileFailing.withLock {
            $0 = { [network] in
                // The device loses its network and gets it back while this request fails.
                network.isOffline.withLock { $0 = false }
                network.whileFailing.withLock { $0 = nil }
                connectivity.set(.offline)
                connectivity.set(.online)
            }
        }
        let (engage, provider) = try await harness.start(
            harness.exploreConfiguration {
                $0.syncsAutomatically = true
                $0.syncRetrySeconds = 3_600  // the injected clock never gets there in this test
            }, transport: network, connectivity: connectivity)
        #expect(await eventually { (try? await provider.syncState())?.timestamp == 1_000 })
        #expect(network.refused.value == 1)
        #expect(harness.feed.downloadCount(for: .mainnet) == 1)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("an automatic sync that failed for lack of a connection runs again when the connection is back, not an hour later")
    func retryWhenBackOnline() async throws {
        let harness = try await ExploreFeedHarness()
        try harness.publish(timestamp: 1_000)
        let network = SwitchableNetwork()
        let connectivity = Connectivity.manual(.online)
        let (engage, provider) = try await harness.start(
            harness.exploreConfiguration {
                $0.syncsAutomatically = true
                $0.syncRetrySeconds = 3_600  // the injected clock never gets there in this test
            }, transport: network, connectivity: connectivity)
        #expect(await eventually { network.refused.value > 0 && provider.directoryStatus.value.lastError != nil })
        #expect(try await provider.syncState() == nil)
        // The schedule waits for its retry timer (an hour away on the injected clock) or the connection.
        #expect(await eventually { connectivity.waiterCount == 1 })
        // The device loses its network, then gets it back: the sync runs at once.
        network.isOffline.withLock { $0 = false }
        connectivity.set(.offline)
        connectivity.set(.online)
        #expect(await eventually { (try? await provider.syncState())?.timestamp == 1_000 })
        #expect(harness.clock.totalSleepCount >= 1, "the retry did not wait for the injected clock (never advanced)")
        #expect(harness.feed.downloadCount(for: .mainnet) == 1)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("waiting until back online: online when asked does not count; offline or unknown then online does, flaps too")
    func backOnlineSignal() async throws {
        let connectivity = Connectivity.manual(.online)
        let returned = Locked(false)
        let waiter = Task {
            await connectivity.waitUntilBackOnline()
            returned.withLock { $0 = true }
        }
        #expect(await waitUntil { connectivity.waiterCount == 1 })
        connectivity.set(.online)  // no change: not a return
        for _ in 0..<100 { await Task.yield() }
        #expect(!returned.value)
        connectivity.set(.offline)
        connectivity.set(.online)  // a quick flap: counted even if the waiter only sees the newest value
        await waiter.value
        #expect(returned.value && connectivity.waiterCount == 0)

        let unknown = Connectivity.manual()
        let second = Task { await unknown.waitUntilBackOnline() }
        #expect(await waitUntil { unknown.waiterCount == 1 })
        unknown.set(.online)
        await second.value
        #expect(unknown.status == .online)

        // Without a signal it waits until cancelled.
        let silent = Connectivity.manual()
        let third = Task { await silent.waitUntilBackOnline() }
        #expect(await waitUntil { silent.waiterCount == 1 })
        third.cancel()
        await third.value
        #expect(silent.status == .unknown && silent.waiterCount == 0)
    }

    @Test("a manifest that is not usable is refused before any download")
    func badManifest() async throws {
        let harness = try await ExploreFeedHarness()
        let (engage, provider) = try await harness.start()
        let unpublished = await #expect(throws: EngageError.self) { try await provider.sync() }
        #expect(unpublished?.httpStatus == 404)
        for manifest in [
            ExploreFeedManifest(timestamp: 1, checksum: "xyz", size: 10, archive: "a.zip"),
            ExploreFeedManifest(timestamp: 1, checksum: String(repeating: "a", count: 64), size: 10, archive: "../../etc/passwd"),
            ExploreFeedManifest(timestamp: 1, checksum: String(repeating: "a", count: 64), size: 1 << 40, archive: "a.zip"),
            ExploreFeedManifest(timestamp: 0, checksum: String(repeating: "a", count: 64), size: 10, archive: "a.zip"),
        ] {
            #expect(throws: EngageError.self, "\(manifest)") { try manifest.validate(maxBytes: 1 << 30) }
        }
        await engage.shutdown()
        await harness.stop()
    }
}

/// Polls `condition` until it holds (`false` only when the test is cancelled, by its deadline).
func eventually(_ condition: () async -> Bool) async -> Bool {
    await waitUntil(condition)
}
