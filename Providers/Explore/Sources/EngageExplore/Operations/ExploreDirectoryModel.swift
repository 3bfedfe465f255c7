@_spi(EngageProvider) import EngageCore
import Foundation
import Observation

/// What the selected network's directory is and what its syncs are doing, as
/// ``ExploreDirectoryModel`` shows it.
package struct ExploreDirectoryStatus: Sendable, Equatable {
    /// The network these values are about.
    package var network: ExploreNetwork
    /// The installed directory, `nil` before the first sync (or with a fixed `databasePath`).
    package var installed: ExploreSyncState?
    /// Whether a sync of the network runs.
    package var isSyncing = false
    /// The running sync's last step, or the last sync's final one.
    package var progress: ExploreSyncProgress?
    /// What the last successful sync did.
    package var lastOutcome: ExploreSyncOutcome?
    /// Why the last sync failed; `nil` once one succeeds.
    package var lastError: EngageError?
}

/// Explore's directory as an observable object for SwiftUI: what is installed, whether a sync runs
/// and how far it is, how the last one ended, and paged merchant lists that reload when a new
/// directory is installed.
///
/// ```swift
/// struct DirectoryStatusView: View {
///     let directory: ExploreDirectoryModel  // explore.directoryModel
///     var body: some View {
///         if directory.isSyncing {
///             ProgressView(value: directory.progress?.fractionCompleted ?? 0)
///         } else if let error = directory.lastError {
///             Text(error.localizedDescription)
///         }
///         Button("Sync now") { Task { await directory.sync() } }
///     }
/// }
/// ```
///
/// Every sync shows here, the automatic ones too. The values are updated on the main actor, shortly
/// after they change.
///
/// On iOS 17, macOS 14 and later it is `Observable`; on every OS, iOS 16 included, ``updates`` delivers
/// it as a ``Snapshot`` after each change
/// (`.task { for await snapshot in directory.updates { isSyncing = snapshot.isSyncing } }`).
@MainActor
public final class ExploreDirectoryModel {
    /// Everything the directory model shows, as one value: what ``updates`` delivers.
    public struct Snapshot: Sendable, Equatable {
        /// The network whose directory this is.
        public internal(set) var network: ExploreNetwork
        /// The installed directory's feed values, `nil` while none is installed.
        public internal(set) var installed: ExploreSyncState?
        /// Whether a sync runs (one the app started or an automatic one).
        public internal(set) var isSyncing = false
        /// The running sync's step and bytes, or the last sync's final step.
        public internal(set) var progress: ExploreSyncProgress?
        /// What the last successful sync did.
        public internal(set) var lastOutcome: ExploreSyncOutcome?
        /// Why the last sync failed; `nil` once one succeeds.
        public internal(set) var lastError: EngageError?
    }

    /// The network whose directory this is (``ExploreProvider/selectNetwork(_:)`` changes it).
    public var network: ExploreNetwork { state[\.network] }
    /// The installed directory's feed values, `nil` while none is installed.
    public var installed: ExploreSyncState? { state[\.installed] }
    /// Whether a sync runs (one the app started or an automatic one).
    public var isSyncing: Bool { state[\.isSyncing] }
    /// The running sync's step and bytes, or the last sync's final step.
    public var progress: ExploreSyncProgress? { state[\.progress] }
    /// What the last successful sync did.
    public var lastOutcome: ExploreSyncOutcome? { state[\.lastOutcome] }
    /// Why the last sync failed; `nil` once one succeeds.
    public var lastError: EngageError? { state[\.lastError] }
    /// The whole model as it is now.
    public var snapshot: Snapshot { state.value }
    /// The directory as it is now, then again after every change (the newest only, when a reader falls
    /// behind): the form for iOS 16, where SwiftUI cannot observe the object itself. The sequence ends
    /// when the object is released.
    public nonisolated var updates: AsyncStream<Snapshot> { state.updates }

    private let state: ObservableModelState<Snapshot>
    private let resolver: ProviderResolver<ExploreProvider>
    private var follower: Task<Void, Never>?

    /// The directory of the provider `resolver` reaches (at once, for a model the provider made; once
    /// it started, for one the facade made), showing `network` until then.
    init(resolver: ProviderResolver<ExploreProvider>, network: ExploreNetwork) {
        self.resolver = resolver
        state = ObservableModelState(
            Snapshot(network: network),
            fields: [
                .field(\.network), .field(\.installed), .field(\.isSyncing), .field(\.progress), .field(\.lastOutcome),
                .field(\.lastError),
            ])
        let initial = resolver.ifResolved?.directoryStatus.value
        follower = Task { [weak self] in
            // The first value is the status now.
            guard let updates = try? await resolver.provider().directoryStatus.updates() else { return }
            for await status in updates {
                guard let self else { return }
                self.apply(status)
            }
        }
        if let initial { apply(initial) }
    }

    deinit {
        follower?.cancel()
    }

    /// Syncs the selected network now (see ``ExploreProvider/sync(progress:)``). Never throws: a
    /// failure is in ``lastError`` (and the installed directory stays as it was).
    public func sync() async {
        do {
            _ = try await resolver.provider().sync()
        } catch {
            // A failed sync is in the status the follower applies; a provider that did not start is not.
            if resolver.ifResolved == nil { state.update { $0.lastError = error } }
        }
    }

    /// A paged list of the merchants that match `query`, `pageSize` at a time (1 to
    /// `PageRequest.maxLimit`); `query.page` is ignored. It loads nothing until asked.
    public func merchants(matching query: ExploreMerchantQuery = ExploreMerchantQuery(), pageSize: Int = 50) -> ExploreMerchantList {
        ExploreMerchantList(resolver: resolver, query: query, pageSize: pageSize)
    }

    /// Shows `status`; only the observers of the fields that changed are woken.
    private func apply(_ status: ExploreDirectoryStatus) {
        state.update {
            $0 = Snapshot(
                network: status.network, installed: status.installed, isSyncing: status.isSyncing, progress: status.progress,
                lastOutcome: status.lastOutcome, lastError: status.lastError)
        }
    }
}

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
extension ExploreDirectoryModel: Observable {}

/// Merchants of Explore's directory as a paged observable list for a SwiftUI `List`: it loads a
/// page when the list scrolls near its end, and starts over (loading the first page again) when the
/// query changes or, once a page was asked for, when a new directory is installed.
///
/// ```swift
/// struct MerchantsView: View {
///     let list: ExploreMerchantList  // explore.directoryModel.merchants(matching: query)
///     var body: some View {
///         List(list.merchants) { merchant in
///             Text(merchant.name)
///                 .task { await list.loadMoreIfNeeded(after: merchant) }
///         }
///         .task { await list.loadMore() }
///     }
/// }
/// ```
///
/// On iOS 17, macOS 14 and later it is `Observable`; on every OS, iOS 16 included, ``updates`` delivers
/// it as a ``Snapshot`` after each change.
@MainActor
public final class ExploreMerchantList {
    /// Everything the list shows, as one value: what ``updates`` delivers.
    public struct Snapshot: Sendable, Equatable {
        /// The merchants loaded so far, in the query's order.
        public internal(set) var merchants: [ExploreMerchant] = []
        /// How many merchants match, once a page has said.
        public internal(set) var totalCount: Int?
        /// Whether a page is loading.
        public internal(set) var isLoading = false
        /// Whether more merchants may follow the loaded ones.
        public internal(set) var hasMore = true
        /// Why the last page failed to load.
        public internal(set) var lastError: EngageError?
        /// What the list shows.
        public internal(set) var query: ExploreMerchantQuery
    }

    /// The merchants loaded so far, in the query's order.
    public var merchants: [ExploreMerchant] { state[\.merchants] }
    /// How many merchants match, once a page has said.
    public var totalCount: Int? { state[\.totalCount] }
    /// Whether a page is loading.
    public var isLoading: Bool { state[\.isLoading] }
    /// Whether more merchants may follow the loaded ones.
    public var hasMore: Bool { state[\.hasMore] }
    /// Why the last page failed to load; ``loadMore()`` tries it again.
    public var lastError: EngageError? { state[\.lastError] }
    /// What the list shows; ``search(_:)`` changes it.
    public var query: ExploreMerchantQuery { state[\.query] }
    /// The whole list as it is now.
    public var snapshot: Snapshot { state.value }
    /// The list as it is now, then again after every change (the newest only, when a reader falls
    /// behind): the form for iOS 16, where SwiftUI cannot observe the object itself. The sequence ends
    /// when the list is released.
    public nonisolated var updates: AsyncStream<Snapshot> { state.updates }
    /// How many merchants a page holds.
    public let pageSize: Int

    private let state: ObservableModelState<Snapshot>
    private let resolver: ProviderResolver<ExploreProvider>
    /// Bumped at every restart: a page that arrives for an older generation is dropped.
    private var generation: UInt64 = 0
    private var loading: Task<Void, Never>?
    private var follower: Task<Void, Never>?
    /// Whether the app has asked for a page: only then does an install load the first page again.
    private var wasAsked = false

    init(resolver: ProviderResolver<ExploreProvider>, query: ExploreMerchantQuery, pageSize: Int) {
        self.resolver = resolver
        state = ObservableModelState(
            Snapshot(query: query),
            fields: [
                .field(\.merchants), .field(\.totalCount), .field(\.isLoading), .field(\.hasMore), .field(\.lastError), .field(\.query),
            ])
        self.pageSize = PageRequest(limit: pageSize).limit
        follower = Task { [weak self] in
            guard let updates = try? await resolver.provider().directoryStatus.updates() else { return }
            var installed: ExploreSyncState??
            for await status in updates {
                guard let self else { return }
                // The first value is the directory the list starts with; a later change means other rows.
                if let previous = installed, previous != status.installed, self.wasAsked { await self.reload() }
                installed = .some(status.installed)
            }
        }
    }

    deinit {
        follower?.cancel()
        loading?.cancel()
    }

    /// Loads the next page, unless one is loading (then waits for it) or none is left. A failure is in
    /// ``lastError``; calling again retries the same page.
    public func loadMore() async {
        wasAsked = true
        if let loading {
            await loading.value
            return
        }
        guard hasMore else { return }
        let generation = generation
        var page = query
        page.page = PageRequest(offset: merchants.count, limit: pageSize)
        let resolver = resolver
        state.update { $0.isLoading = true }
        let task = Task { @MainActor in
            let result: Result<Page<ExploreMerchant>, EngageError>
            do {
                result = .success(try await resolver.provider().merchants(page))
            } catch {
                result = .failure(EngageError.wrapping(error, providerID: .explore))
            }
            guard generation == self.generation else { return }
            // In the same turn as the page lands: a call made once it shows loads the next page
            // instead of joining this finished one.
            loading = nil
            state.update { snapshot in
                snapshot.isLoading = false
                switch result {
                case let .success(loaded):
                    let known = Set(snapshot.merchants.map(\.merchantID))
                    snapshot.merchants += loaded.items.filter { !known.contains($0.merchantID) }
                    snapshot.totalCount = loaded.totalCount
                    snapshot.hasMore = loaded.hasMore && !loaded.items.isEmpty
                    snapshot.lastError = nil
                case let .failure(error):
                    snapshot.lastError = error
                }
            }
        }
        loading = task
        await task.value
    }

    /// Loads the next page when `merchant` is among the last few loaded: call it from each row's
    /// `.task` or `.onAppear`.
    public func loadMoreIfNeeded(after merchant: ExploreMerchant) async {
        guard let index = merchants.lastIndex(where: { $0.merchantID == merchant.merchantID }),
            index >= merchants.count - max(1, pageSize / 5)
        else { return }
        await loadMore()
    }

    /// Shows the merchants matching `query` instead (its `page` is ignored) and loads their first page.
    public func search(_ query: ExploreMerchantQuery) async {
        state.update { $0.query = query }
        restart()
        await loadMore()
    }

    /// Forgets the loaded pages and loads the first one again.
    public func reload() async {
        restart()
        await loadMore()
    }

    /// Forgets the loaded pages; a page in flight is dropped when it arrives.
    private func restart() {
        generation &+= 1
        loading = nil
        state.update {
            $0.merchants = []
            $0.totalCount = nil
            $0.hasMore = true
            $0.isLoading = false
            $0.lastError = nil
        }
    }
}

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
extension ExploreMerchantList: Observable {}

extension ExploreProvider {
    /// The selected network's directory as an observable object (sync status and progress, paged
    /// merchant lists), the same one on every read (and the one `engage.explore.directoryModel`
    /// returns).
    @MainActor public var directoryModel: ExploreDirectoryModel {
        ProviderModels(self, context: context).directoryModel
    }
}

extension ProviderModels where Provider == ExploreProvider {
    /// The selected network's directory (see ``ExploreDirectoryModel``), the same object on every read:
    /// there at once through `engage.explore.directoryModel`, showing the configured network and nothing
    /// installed until Explore runs.
    @MainActor public var directoryModel: ExploreDirectoryModel {
        model("explore.directoryModel") {
            let configured = (try? configuration.providerConfiguration(ExploreConfiguration.self, for: .explore))??.network
            return ExploreDirectoryModel(
                resolver: resolver, network: resolver.ifResolved?.directoryStatus.value.network ?? configured ?? .mainnet)
        }
    }
}
