import EngageCore
import Foundation
import Logging
import Synchronization

/// One network's directory on disk: the installed `explore.db`, its index and its sync state; the
/// open ``ExploreDirectory``; and at most one sync at a time.
///
/// Files live in `<root>/<network>/`: `explore.db`, `explore.db.index` and, during a sync only,
/// `incoming-<id>/`. A sync downloads, verifies, unpacks and indexes inside `incoming-…`, and only then
/// renames the index and the file into place; any failure before that leaves the installed directory
/// as it was. The state is stored under `sync.<network>` in the provider's storage.
actor ExploreDirectoryStore {
    /// Size limits and timeouts of a sync.
    struct Limits: Sendable {
        /// The largest archive accepted.
        var maxArchiveBytes: Int64
        /// The largest unpacked database accepted.
        var maxDatabaseBytes: Int64
        /// The download's timeout (no data for this long fails the attempt).
        var downloadTimeout: Duration
    }

    let network: ExploreNetwork
    let folder: URL
    let feed: APIClient?
    private let storage: StorageNamespace
    let clock: any EngageClock
    let logger: Logger
    let limits: Limits

    private var opened: ExploreDirectory?
    private var opening: Task<ExploreDirectory, any Error>?
    private var running: Task<ExploreSyncOutcome, any Error>?
    /// Progress handlers of the callers waiting on the running sync.
    private let observers = Mutex<[UUID: @Sendable (ExploreSyncProgress) -> Void]>([:])

    init(network: ExploreNetwork, root: URL, feed: APIClient?, storage: StorageNamespace, clock: any EngageClock, logger: Logger, limits: Limits) {
        self.network = network
        folder = root.appendingPathComponent(network.rawValue, isDirectory: true)
        self.feed = feed
        self.storage = storage
        self.clock = clock
        self.logger = logger
        self.limits = limits
    }

    var databaseURL: URL { folder.appendingPathComponent(ExploreArchive.databaseName) }
    var indexURL: URL { folder.appendingPathComponent(ExploreArchive.databaseName + ".index") }
    private var stateKey: String { "sync.\(network.rawValue)" }

    /// The installed directory's state, if one is installed.
    func state() throws -> ExploreSyncState? {
        try storage.value(ExploreSyncState.self, forKey: stateKey)
    }

    /// When the next sync is due: `interval` after the feed was last checked, or `nil` (now) when
    /// nothing is installed.
    func nextSyncDate(interval: Duration) throws -> Date? {
        guard let state = try state(), FileManager.default.fileExists(atPath: databaseURL.path) else { return nil }
        return state.checkedAt.adding(interval)
    }

    /// The installed directory, opened (and indexed, the first time) off the cooperative pool.
    ///
    /// - Throws: `.exploreDirectoryMissing` when this network has no directory yet.
    func directory() async throws -> ExploreDirectory {
        if let opened { return opened }
        if let opening { return try await opening.value }
        guard FileManager.default.fileExists(atPath: databaseURL.path) else {
            throw EngageError(
                .exploreDirectoryMissing, "No \(network.rawValue) directory is installed yet: sync first.", providerID: .explore
            )
        }
        let fingerprint = try state()?.fingerprint
        let (path, indexPath, logger) = (databaseURL.path, indexURL.path, logger)
        let task = Task {
            try await ExploreBlockingWork.run { try ExploreDirectory.open(path: path, indexPath: indexPath, fingerprint: fingerprint, logger: logger) }
        }
        opening = task
        defer { opening = nil }
        let directory = try await task.value
        opened = directory
        return directory
    }

    /// Checks the feed and installs a newer directory; concurrent callers share one sync and each
    /// hears its progress. A started sync runs to its end even if a caller stops waiting.
    func sync(progress: (@Sendable (ExploreSyncProgress) -> Void)? = nil) async throws -> ExploreSyncOutcome {
        let observer = UUID()
        if let progress { observers.withLock { $0[observer] = progress } }
        defer { _ = observers.withLock { $0.removeValue(forKey: observer) } }
        if let running { return try await running.value }
        let task = Task { try await self.performSync() }
        running = task
        defer { running = nil }
        return try await task.value
    }

    /// Tells every waiting caller where the sync is.
    nonisolated func report(_ progress: ExploreSyncProgress) {
        for handler in observers.withLock({ Array($0.values) }) { handler(progress) }
    }

    func saveState(_ state: ExploreSyncState) throws {
        try storage.setValue(state, forKey: stateKey)
    }

    /// Adopts a newly installed directory for the next queries (open ones finish on the old file).
    func adopt(_ directory: ExploreDirectory) {
        opened = directory
    }
}
