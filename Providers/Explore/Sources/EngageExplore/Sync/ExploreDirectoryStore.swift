@_spi(EngageProvider) import EngageCore
import Foundation
import Logging

/// One network's directory on disk: the installed `explore.db`, its index and its sync state; the
/// open ``ExploreDirectory``; and at most one sync at a time.
///
/// Files live in `<root>/<network>/`: `explore.db`, `explore.db.index` and, during a sync only,
/// `incoming-<id>/`. A sync downloads, verifies, unpacks and indexes inside `incoming-…`, and only then
/// renames the index and the file into place; any failure before that leaves the installed directory
/// as it was. The state is stored under `sync.<network>` in the provider's storage.
///
/// Opening and installing never overlap: an install waits for an opening in progress before it renames
/// files (an opening may rebuild the index from the file it found), and an opening that finishes after
/// an install (a newer ``generation``) is discarded in favour of the installed directory. A sync's
/// callers can leave at any time; the sync stops when its last caller has left or at ``shutdown()``.
actor ExploreDirectoryStore {
    /// Size limits and timeouts of a sync.
    struct Limits: Sendable {
        /// The largest archive accepted.
        var maxArchiveBytes: Int64
        /// The largest unpacked database accepted.
        var maxDatabaseBytes: Int64
        /// The download's timeout (no data for this long fails the attempt).
        var downloadTimeout: Duration
        /// The longest the whole download may take: an hour, as the archive can be hundreds of
        /// megabytes on a slow network (the call deadline of other requests is far shorter).
        var downloadDeadline: Duration = .seconds(3600)
    }

    let network: ExploreNetwork
    let folder: URL
    let source: ExploreSyncSource?
    let storage: StorageNamespace
    let clock: any EngageClock
    let logger: Logger
    let limits: Limits

    private var opened: ExploreDirectory?
    private let openings = SingleFlight<ExploreDirectory>()
    /// The sync in progress; it stays in flight until its task has ended, even once stopped.
    private let syncs = SingleFlight<ExploreSyncOutcome>()
    /// Bumped by every ``adopt(_:)``: an opening that started under an older generation is stale.
    private(set) var generation: UInt64 = 0
    /// An install renaming files into place (it ends once the new directory is adopted); openings wait
    /// for it. Only a sync installs, and syncs are single-flight, so there is one at a time.
    private let installs = SingleFlight<ExploreDirectory>()
    /// How many callers wait on the running sync.
    private var syncWaiters = 0
    private var isShutDown = false
    /// Runs after an opening has read its file and before it is kept (tests end an install there).
    package nonisolated let afterOpening = Locked<(@Sendable () async -> Void)?>(nil)
    /// Progress handlers of the callers waiting on the running sync.
    private let observers = Locked<[UUID: @Sendable (ExploreSyncProgress) -> Void]>([:])

    /// A store; one made after its provider's shutdown began (`isShutDown`) refuses every sync.
    init(
        network: ExploreNetwork, root: URL, source: ExploreSyncSource?, storage: StorageNamespace, clock: any EngageClock, logger: Logger,
        limits: Limits, isShutDown: Bool = false
    ) {
        self.isShutDown = isShutDown
        self.network = network
        folder = root.appendingPathComponent(network.rawValue, isDirectory: true)
        self.source = source
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
    /// nothing is installed. A due date more than one interval away means the wall clock was set back
    /// since the last check: the sync is due now, so a clock set back a year never postpones it a year.
    func nextSyncDate(interval: Duration) throws -> Date? {
        guard let state = try state(), FileManager.default.fileExists(atPath: databaseURL.path) else { return nil }
        let next = state.checkedAt.adding(interval)
        let now = clock.now
        return next.timeIntervalSince(now) > interval.seconds ? now : next
    }

    /// The installed directory, opened (and indexed, the first time) off the cooperative pool.
    ///
    /// - Throws: `.exploreDirectoryMissing` when this network has no directory yet.
    func directory() async throws -> ExploreDirectory {
        if let installing = installs.current { _ = await installing.result }
        if let opened { return opened }
        if let opening = openings.current { return try await opening.value }
        guard FileManager.default.fileExists(atPath: databaseURL.path) else {
            throw EngageError(
                .exploreDirectoryMissing, "No \(network.rawValue) directory is installed yet: sync first.", providerID: .explore
            )
        }
        let state = try state()
        if let state, !ExploreDatabaseFiles.matches(databaseURL.path, bytes: state.databaseBytes) {
            // A torn install: the next sync is due at once and installs the directory again.
            var due = state
            due.checkedAt = .distantPast
            try saveState(due)
            throw EngageError(
                .exploreDirectoryMissing, "The installed \(network.rawValue) directory is damaged: sync to install it again.",
                providerID: .explore)
        }
        let fingerprint = state?.fingerprint
        let (path, indexPath, logger, hook) = (databaseURL.path, indexURL.path, logger, afterOpening)
        let startGeneration = generation
        let flight = openings.run { _ in
            let directory = try await ExploreBlockingWork.run {
                try ExploreDirectory.open(path: path, indexPath: indexPath, fingerprint: fingerprint, logger: logger)
            }
            await hook.value?()
            return directory
        }
        let directory = try await flight.task.value
        // An install adopted a newer directory meanwhile: this one was opened from the file it replaced.
        if generation != startGeneration, let opened { return opened }
        opened = directory
        return directory
    }

    /// Runs `install` (the renames of a sync, then opening the new file) once no opening is in progress,
    /// and makes openings that start meanwhile wait for it.
    func install(_ install: @escaping @Sendable () async throws -> ExploreDirectory) async throws -> ExploreDirectory {
        // Openings that start from now on wait for the install; the one in progress is waited for
        // before any file is renamed.
        let inProgress = openings.current
        let flight = installs.run { _ in
            _ = await inProgress?.result
            let directory = try await install()
            await self.adopt(directory)
            return directory
        }
        return try await flight.task.value
    }

    /// Checks the feed and installs a newer directory; concurrent callers share one sync and each
    /// hears its progress.
    ///
    /// A caller cancelled while it waits returns `.cancelled` at once; when the last caller has left,
    /// the sync itself is cancelled (the download stops, its files are removed).
    func sync(progress: (@Sendable (ExploreSyncProgress) -> Void)? = nil) async throws -> ExploreSyncOutcome {
        guard !isShutDown else {
            throw EngageError(.cancelled, "The Explore provider was shut down.", providerID: .explore)
        }
        let observer = UUID()
        if let progress { observers.withLock { $0[observer] = progress } }
        defer { _ = observers.withLock { $0.removeValue(forKey: observer) } }
        // A sync stopped because its callers left is awaited to its end (its files removed) before
        // another starts: two syncs never run at once.
        while let stopping = syncs.current, stopping.isCancelled { _ = await stopping.result }
        // The sync forgets itself when it ends, whoever still waits for it.
        let task = syncs.run { _ in try await self.performSync() }.task
        syncWaiters += 1
        defer {
            syncWaiters -= 1
            // Nobody waits any more: an unfinished sync is stopped (it stays in flight until it ends).
            if syncWaiters == 0 { task.cancel() }
        }
        return try await task.valueUnlessCancelled(providerID: .explore)
    }

    /// Stops the running sync (its download and files go) and refuses new ones; waits for it to end.
    func shutdown() async {
        isShutDown = true
        guard let running = syncs.current else { return }
        running.cancel()
        _ = await running.result
    }

    /// Removes what a sync killed mid-way left in `folder` (`incoming-*` folders, `*.building-*` index
    /// files). Call before any sync of this process starts.
    nonisolated static func sweepOrphans(in folder: URL, logger: Logger) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix("incoming-") || name.contains(".building-") {
            do {
                try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
                logger.notice("Removed a leftover of an interrupted Explore sync", metadata: ["name": "\(name.prefix(64))"])
            } catch {
                logger.warning("A leftover of an interrupted Explore sync could not be removed", metadata: ["name": "\(name.prefix(64))"])
            }
        }
    }

    /// Tells every waiting caller where the sync is.
    nonisolated func report(_ progress: ExploreSyncProgress) {
        for handler in observers.withLock({ Array($0.values) }) { handler(progress) }
    }

    func saveState(_ state: ExploreSyncState) throws {
        try storage.setValue(state, forKey: stateKey)
    }

    /// Adopts a newly installed directory for the next queries (open ones finish on the old file);
    /// an opening still in progress is stale from now on.
    func adopt(_ directory: ExploreDirectory) {
        generation &+= 1
        opened = directory
    }
}
