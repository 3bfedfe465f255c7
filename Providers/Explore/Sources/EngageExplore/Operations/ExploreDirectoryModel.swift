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

/// Explore's directory as an `@Observable` object for SwiftUI: what is installed, whether a sync runs
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
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor @Observable
public final class ExploreDirectoryModel {
    /// The network whose directory this is (``ExploreProvider/selectNetwork(_:)`` changes it).
    public private(set) var network: ExploreNetwork
    /// The installed directory's feed values, `nil` while none is installed.
    public private(set) var installed: ExploreSyncState?
    /// Whether a sync runs (one the app started or an automatic one).
    public private(set) var isSyncing = false
    /// The running sync's step and bytes, or the last sync's final step.
    public private(set) var progress: ExploreSyncProgress?
    /// What the last successful sync did.
    public private(set) var lastOutcome: ExploreSyncOutcome?
    /// Why the last sync failed; `nil` once one succeeds.
    public private(set) var lastError: EngageError?

    @ObservationIgnored private let resolver: ProviderResolver<ExploreProvider>
    @ObservationIgnored private var follower: Task<Void, Never>?

    /// The directory of the provider `resolver` reaches (at once, for a model the provider made; once
    /// it started, for one the facade made), showing `network` until then.
    init(resolver: ProviderResolver<ExploreProvider>, network: ExploreNetwork) {
        self.resolver = resolver
        self.network = network
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
            if resolver.ifResolved == nil { lastError = error }
        }
    }

    /// A paged list of the merchants that match `query`, `pageSize` at a time (1 to
    /// `PageRequest.maxLimit`); `query.page` is ignored. It loads nothing until asked.
    public func merchants(matching query: ExploreMerchantQuery = ExploreMerchantQuery(), pageSize: Int = 50) -> ExploreMerchantList {
        ExploreMerchantList(resolver: resolver, query: query, pageSize: pageSize)
    }

    /// Sets each property that changed, so observers of the others are not woken.
    private func apply(_ status: ExploreDirectoryStatus) {
        if network != status.network { network = status.network }
        if installed != status.installed { installed = status.installed }
        if isSyncing != status.isSyncing { isSyncing = status.isSyncing }
        if progress != status.progress { progress = status.progress }
        if lastOutcome != status.lastOutcome { lastOutcome = status.lastOutcome }
        if lastError != status.lastError { lastError = status.lastError }
    }
}

/// Merchants of Explore's directory as a paged `@Observable` list for a SwiftUI `List`: it loads a
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
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor @Observable
public final class ExploreMerchantList {
    /// The merchants loaded so far, in the query's order.
    public private(set) var merchants: [ExploreMerchant] = []
    /// How many merchants match, once a page has said.
    public private(set) var totalCount: Int?
    /// Whether a page is loading.
    public private(set) var isLoading = false
    /// Whether more merchants may follow the loaded ones.
    public private(set) var hasMore = true
    /// Why the last page failed to load; ``loadMore()`` tries it again.
    public private(set) var lastError: EngageError?
    /// What the list shows; ``search(_:)`` changes it.
    public private(set) var query: ExploreMerchantQuery
    /// How many merchants a page holds.
    public let pageSize: Int

    @ObservationIgnored private let resolver: ProviderResolver<ExploreProvider>
    /// Bumped at every restart: a page that arrives for an older generation is dropped.
    @ObservationIgnored private var generation: UInt64 = 0
    @ObservationIgnored private var loading: Task<Void, Never>?
    @ObservationIgnored private var follower: Task<Void, Never>?
    /// Whether the app has asked for a page: only then does an install load the first page again.
    @ObservationIgnored private var wasAsked = false

    init(resolver: ProviderResolver<ExploreProvider>, query: ExploreMerchantQuery, pageSize: Int) {
        self.resolver = resolver
        self.query = query
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
        isLoading = true
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
            isLoading = false
            switch result {
            case let .success(loaded):
                let known = Set(merchants.map(\.merchantID))
                merchants += loaded.items.filter { !known.contains($0.merchantID) }
                totalCount = loaded.totalCount
                hasMore = loaded.hasMore && !loaded.items.isEmpty
                lastError = nil
            case let .failure(error):
                lastError = error
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
        self.query = query
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
        merchants = []
        totalCount = nil
        hasMore = true
        isLoading = false
        lastError = nil
    }
}

extension ExploreProvider {
    /// The selected network's directory as an `@Observable` object (sync status and progress, paged
    /// merchant lists), the same one on every read (and the one `engage.explore.directoryModel`
    /// returns).
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    @MainActor public var directoryModel: ExploreDirectoryModel {
        ProviderModels(self, context: context).directoryModel
    }
}

extension ProviderModels where Provider == ExploreProvider {
    /// The selected network's directory (see ``ExploreDirectoryModel``), the same object on every read:
    /// there at once through `engage.explore.directoryModel`, showing the configured network and nothing
    /// installed until Explore runs.
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    @MainActor public var directoryModel: ExploreDirectoryModel {
        model("explore.directoryModel") {
            let configured = (try? configuration.providerConfiguration(ExploreConfiguration.self, for: .explore))??.network
            return ExploreDirectoryModel(
                resolver: resolver, network: resolver.ifResolved?.directoryStatus.value.network ?? configured ?? .mainnet)
        }
    }
}
