@_spi(EngageProvider) import EngageCore
import Foundation
import Logging

extension ExploreProvider {
    /// Checks the directory source (the feed, or Firebase Storage) for the selected network and
    /// installs a newer directory: download (progress reported to `progress`), size and checksum checks,
    /// unpacking (and decrypting, from Firebase Storage), indexing, then an atomic swap. Anything failing
    /// leaves the installed directory as it was. Concurrent calls share one sync.
    ///
    /// - Throws: `.notConfigured` without a directory source or with a fixed `databasePath`;
    ///   `.exploreDownloadInvalid` for a truncated, corrupt or unreadable download; network errors.
    @discardableResult
    public func sync(progress: (@Sendable (ExploreSyncProgress) -> Void)? = nil) async throws(EngageError) -> ExploreSyncOutcome {
        try await context.perform(ExploreOperation.sync) {
            guard configuration.databasePath == nil else {
                throw EngageError(.notConfigured, "Explore queries a fixed databasePath; it does not sync.", providerID: .explore)
            }
            let network = network
            beginSync(on: network)
            do {
                let outcome = try await store(for: network).sync { [directoryStatus] step in
                    progress?(step)
                    directoryStatus.update { if $0.network == network { $0.progress = step } }
                }
                let installed = try? await store(for: network).state()
                endSync(on: network) { status in
                    status.installed = installed
                    status.lastOutcome = outcome
                    status.lastError = nil
                }
                return outcome
            } catch {
                endSync(on: network) { $0.lastError = EngageError.wrapping(error, providerID: .explore) }
                throw error
            }
        }
    }

    /// Counts a sync of `network` in ``directoryStatus``.
    private func beginSync(on network: ExploreNetwork) {
        let running = syncsInFlight.withLock { count -> Int in
            count[network, default: 0] += 1
            return count[network, default: 0]
        }
        directoryStatus.update { status in
            guard status.network == network else { return }
            status.isSyncing = running > 0
            if running == 1 { status.progress = nil }
        }
    }

    /// Ends a sync of `network` in ``directoryStatus``, applying its result.
    private func endSync(on network: ExploreNetwork, _ result: (inout ExploreDirectoryStatus) -> Void) {
        let running = syncsInFlight.withLock { count -> Int in
            count[network, default: 1] -= 1
            return count[network, default: 0]
        }
        directoryStatus.update { status in
            guard status.network == network else { return }
            result(&status)
            status.isSyncing = running > 0
        }
    }

    /// Reads the installed directory of the selected network into ``directoryStatus`` (at start and
    /// when the network changes).
    func loadDirectoryStatus() async {
        let network = network
        let installed = try? await store(for: network).state()
        directoryStatus.update { status in
            guard status.network == network else { return }
            status.installed = installed
        }
    }

    /// Syncs when a sync is due (nothing installed, or the feed last checked `syncIntervalSeconds`
    /// ago); `nil` when none was due. Apps driving their own schedule (a background task) call this.
    @discardableResult
    public func syncIfDue() async throws(EngageError) -> ExploreSyncOutcome? {
        guard try await isSyncDue() else { return nil }
        return try await sync()
    }

    /// Whether a sync of the selected network is due now.
    public func isSyncDue() async throws(EngageError) -> Bool {
        guard configuration.databasePath == nil, configuration.hasDirectorySource else { return false }
        guard let next = try await context.local({ try await store(for: network).nextSyncDate(interval: syncInterval) }) else {
            return true
        }
        return context.clock.now >= next
    }

    private var syncInterval: Duration { .seconds(double: configuration.syncIntervalSeconds) }

    /// What the selected network's installed directory is, if one is installed.
    public func syncState() async throws(EngageError) -> ExploreSyncState? {
        try await context.local { try await store(for: network).state() }
    }

    /// The automatic schedule: a sync at start, then whenever one is due; a failure is retried after
    /// `syncRetrySeconds`. Runs on the context's clock until `shutdown()`.
    func runSchedule() async {
        let retry = Duration.seconds(double: configuration.syncRetrySeconds)
        while !Task.isCancelled {
            var wait = syncInterval
            var retriesWhenOnline = false
            // Taken before the attempt: a connection that comes back while the attempt is failing counts.
            let comebacks = context.connectivity.comebackCount
            do {
                try await syncIfDue()
                if let next = try await store(for: network).nextSyncDate(interval: syncInterval) {
                    wait = .seconds(double: max(1, next.timeIntervalSince(context.clock.now)))
                }
            } catch {
                let failure = EngageError.wrapping(error, providerID: .explore)
                context.logger.notice(
                    "Explore sync failed; retrying later",
                    metadata: [
                        "code": "\(failure.code)", "retryInSeconds": "\(configuration.syncRetrySeconds)",
                    ])
                wait = retry
                // A sync that failed for lack of a connection runs again as soon as one is back.
                retriesWhenOnline = failure.code == .network || failure.code == .timeout
            }
            if retriesWhenOnline {
                await Self.sleep(for: wait, orUntilBackOnlineAfter: comebacks, connectivity: context.connectivity, clock: context.clock)
                if Task.isCancelled { return }
            } else {
                do { try await context.clock.sleep(for: wait) } catch { return }
            }
        }
    }

    /// Waits `duration` on `clock`, or until `connectivity` has come back online more often than
    /// `comebacks`, whichever comes first (or until the task is cancelled).
    static func sleep(
        for duration: Duration, orUntilBackOnlineAfter comebacks: UInt64, connectivity: Connectivity, clock: any EngageClock
    ) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await clock.sleep(for: duration) }
            group.addTask { await connectivity.waitUntilBackOnline(after: comebacks) }
            await group.next()
            group.cancelAll()
        }
    }
}
