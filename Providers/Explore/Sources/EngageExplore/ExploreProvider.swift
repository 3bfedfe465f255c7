import Crypto
@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExploreGiftCards
import Foundation
import Logging

/// The Explore provider: an offline merchant and ATM directory the app syncs from a feed, keeps per
/// network and queries locally, plus the directory's gift cards, sold through gift-card sources
/// (CTX, and PiggyCards with the `PiggyCards` trait: see ``giftCardSource(_:)``).
///
/// ```swift
/// let explore = try engage.provider(ExploreProvider.self)
/// try await explore.sync { progress in print(progress.phase, progress.fractionCompleted ?? 0) }
/// let nearby = try await explore.merchants(.nearby(here, radius: .miles(20)))
/// ```
///
/// Every operation has an `async throws` form and a completion-handler twin (see
/// `ExploreProvider+Callbacks.swift`), and publishes an operation event. Queries run on a dispatch
/// queue, off the cooperative pool.
public final class ExploreProvider: EngageProvider {
    /// The provider's configuration type.
    public typealias Configuration = ExploreConfiguration

    /// Identity, capabilities and event suffix.
    public static let descriptor = ProviderDescriptor(
        id: .explore, displayName: "Explore merchant directory", version: "1.0.0", eventSuffix: "explore"
    )

    let context: ProviderContext
    /// The configuration the provider started with.
    public let configuration: ExploreConfiguration
    /// Where the per-network directories live.
    public let directoryFolder: URL
    private let source: ExploreSyncSource?
    /// The stores made so far, and whether ``shutdown()`` began: a store made after it starts shut down
    /// (it never syncs).
    private let stores = Locked<(byNetwork: [ExploreNetwork: ExploreDirectoryStore], isShutDown: Bool)>(([:], false))
    private let selectedNetwork: Locked<ExploreNetwork>
    /// `configuration.databasePath`'s directory, once opened.
    private let fixedDirectory = Locked<ExploreDirectory?>(nil)
    /// The opening of `configuration.databasePath`'s directory in flight.
    private let fixedOpenings = SingleFlight<ExploreDirectory>()
    private let scheduler = Locked<Task<Void, Never>?>(nil)
    /// The gift-card sources that `configuration.giftCards` turned on, by id.
    let giftCardSources: [ExploreGiftCardProviderID: any GiftCardSource]
    /// The user's purchased gift cards, sealed in the provider's storage, whichever source sold them.
    public let giftCards: GiftCardVault
    /// The selected network's installed directory and syncs, for ``ExploreDirectoryModel``.
    package let directoryStatus: StateBroadcaster<ExploreDirectoryStatus>
    /// Syncs running per network (several callers may run one at once).
    let syncsInFlight = Locked<[ExploreNetwork: Int]>([:])

    /// Creates the provider from its configuration and the SDK's context.
    @_spi(EngageProvider) public init(configuration: ExploreConfiguration, context: ProviderContext) async throws {
        try configuration.validate(for: .explore)
        self.context = context
        self.configuration = configuration
        selectedNetwork = Locked(configuration.network)
        directoryStatus = StateBroadcaster(ExploreDirectoryStatus(network: configuration.network))
        if let folder = configuration.directoryFolder {
            directoryFolder = URL(fileURLWithPath: folder, isDirectory: true)
        } else if let databaseDirectory = context.database.directory {
            directoryFolder = URL(fileURLWithPath: databaseDirectory, isDirectory: true).appendingPathComponent(
                "explore", isDirectory: true)
        } else {
            directoryFolder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "engage-explore-\(UUID().uuidString)", isDirectory: true)
        }
        giftCardSources = try BuiltInGiftCardSources.make(settings: configuration.giftCards, context: context)
        let readKeys = Set(BuiltInGiftCardSources.types.map { $0.configurationKey })
        for key in configuration.giftCards.sections.keys.sorted() where !readKeys.contains(key) {
            context.logger.warning(
                "No gift-card source of this build reads the Explore section '\(key.prefix(64))'; it is ignored",
                metadata: [
                    "hint": "PiggyCards needs the PiggyCards trait"
                ])
        }
        giftCards = GiftCardVault(storage: context.storage, clock: context.clock, events: context.events)
        if let storage = configuration.firebaseStorage {
            source = .firebaseStorage(try context.makeAPIClient(baseURL: try storage.baseURL()), storage)
        } else if let url = configuration.feedURL {
            // The feed's paths are relative to it: make sure it ends with a slash.
            let base = url.absoluteString.hasSuffix("/") ? url : url.appendingPathComponent("")
            source = .feed(try context.makeAPIClient(baseURL: base))
        } else {
            source = nil
        }
    }

    /// Removes what an interrupted sync left behind (download folders, half-built indexes), excludes
    /// the directory folder from device backups on Apple platforms (it is re-downloadable and can be
    /// hundreds of megabytes), then starts the automatic syncs (at start, then every
    /// `syncIntervalSeconds`) when there is a feed.
    @_spi(EngageProvider) public func start() async throws {
        Self.prepareFolder(directoryFolder, logger: context.logger)
        await loadDirectoryStatus()
        guard configuration.syncsAutomatically, source != nil, configuration.databasePath == nil else { return }
        let task = Task { [weak self] in
            guard let self else { return }
            await self.runSchedule()
        }
        scheduler.withLock { $0 = task }
        // A shutdown that began meanwhile missed the task: stop it here.
        if stores.withLock({ $0.isShutDown }) { task.cancel() }
    }

    /// Stops the automatic syncs and any sync in progress (its download stops and its files are
    /// removed), and waits for them to end.
    @_spi(EngageProvider) public func shutdown() async {
        // First: from here no store is made that could sync (see `store(for:)`).
        let stores = stores.withLock { state -> [ExploreDirectoryStore] in
            state.isShutDown = true
            return Array(state.byNetwork.values)
        }
        scheduler.withLock { $0 }?.cancel()
        directoryStatus.finish()
        await withTaskGroup(of: Void.self) { group in
            for store in stores { group.addTask { await store.shutdown() } }
        }
    }

    /// Sweeps orphans of interrupted syncs from `folder` and its per-network folders, and marks
    /// `folder` as excluded from backups where the platform has backups.
    static func prepareFolder(_ folder: URL, logger: Logger) {
        ExploreDirectoryStore.sweepOrphans(in: folder, logger: logger)
        for network in ExploreNetwork.allCases {
            ExploreDirectoryStore.sweepOrphans(in: folder.appendingPathComponent(network.rawValue, isDirectory: true), logger: logger)
        }
        #if canImport(Darwin)
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                var values = URLResourceValues()
                values.isExcludedFromBackup = true
                var url = folder
                try url.setResourceValues(values)
            } catch {
                logger.warning(
                    "The Explore folder could not be excluded from backups", metadata: ["error": "\(error.localizedDescription)"])
            }
        #endif
    }

    /// The network whose directory is served now.
    public var network: ExploreNetwork { selectedNetwork.withLock { $0 } }

    /// Serves `network`'s directory from now on (its own files: the other network's data is never
    /// served). Its directory may need a sync first.
    public func selectNetwork(_ network: ExploreNetwork) {
        selectedNetwork.withLock { $0 = network }
        let running = syncsInFlight.withLock { $0[network, default: 0] }
        directoryStatus.update { $0 = ExploreDirectoryStatus(network: network, isSyncing: running > 0) }
        Task { await loadDirectoryStatus() }
    }

    /// Whether PiggyCards-only merchants are hidden for this user and build.
    public var hidesPiggyCardsOnly: Bool { configuration.hidesPiggyCardsOnly }

    /// The store of `network`, made on first use (shut down already after ``shutdown()``).
    func store(for network: ExploreNetwork) -> ExploreDirectoryStore {
        stores.withLock { state in
            if let store = state.byNetwork[network] { return store }
            let megabyte: Int64 = 1 << 20
            let store = ExploreDirectoryStore(
                network: network, root: directoryFolder, source: source, storage: context.storage, clock: context.clock,
                logger: context.logger,
                limits: .init(
                    maxArchiveBytes: Int64(configuration.maxArchiveMegabytes) * megabyte,
                    maxDatabaseBytes: Int64(configuration.maxDatabaseMegabytes) * megabyte,
                    downloadTimeout: context.configuration.network.timeout
                ), isShutDown: state.isShutDown
            )
            state.byNetwork[network] = store
            return store
        }
    }

    /// The directory to query: the configured file, or the selected network's installed directory.
    func directory() async throws -> ExploreDirectory {
        guard let path = configuration.databasePath else { return try await store(for: network).directory() }
        // Concurrent first queries share one opening (and one index build); a failed one is retried later.
        if let opened = fixedDirectory.value { return opened }
        let (folder, logger, opened) = (directoryFolder, context.logger, fixedDirectory)
        let flight = fixedOpenings.run { _ in
            let directory = try await ExploreBlockingWork.run { try Self.openFixed(path: path, folder: folder, logger: logger) }
            opened.withLock { $0 = directory }
            return directory
        }
        return try await flight.task.value
    }

    /// Opens a directory file given by path; its index lives in the provider's folder, never beside
    /// a file that may be read-only.
    private static func openFixed(path: String, folder: URL, logger: Logger) throws -> ExploreDirectory {
        let name = SHA256.hash(data: Data(path.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try ExploreDirectory.open(path: path, indexPath: folder.appendingPathComponent("fixed-\(name).index").path, logger: logger)
    }
}

// The capabilities the facade fans out to: the provider-author surface.
@_spi(EngageProvider) extension ExploreProvider: MerchantDirectory {}
