@_spi(EngageProvider) import EngageCore
import Foundation
import Observation

/// The signed-in user's Warply wallet as an observable object for SwiftUI: the points balance, the
/// active and redeemed coupons, and the campaigns to show.
///
/// ```swift
/// struct WalletView: View {
///     let wallet: WarplyWallet  // warply.wallet
///     var body: some View {
///         List {
///             Text("\(wallet.points ?? 0) points")
///             ForEach(wallet.activeCoupons, id: \.self) { Text($0.name ?? "Coupon") }
///         }
///         .task { await wallet.refresh() }
///         .refreshable { await wallet.refresh() }
///     }
/// }
/// ```
///
/// It refreshes itself after every successful login (`logIn(deiEmail:)`, `logIn(cosmoteGUID:ticket:)`, `logIn(cosmoteGUID:)`,
/// `updateTokens`, and `engage.logIn`) and coupon redemption, through whichever call they were made,
/// and empties itself at logout. Everything else is fetched when the app calls ``refresh()``. A failed
/// fetch keeps what was shown and sets ``lastError``.
///
/// On iOS 17, macOS 14 and later it is `Observable`, and SwiftUI tracks what a view reads. On every OS,
/// iOS 16 included, ``updates`` delivers the whole wallet as a ``Snapshot`` after each change:
///
/// ```swift
/// struct PointsLabel: View {
///     let wallet: WarplyWallet  // warply.wallet
///     @State private var points: Int?
///     var body: some View {
///         Text("\(points ?? 0) points")
///             .task { for await snapshot in wallet.updates { points = snapshot.points } }
///     }
/// }
/// ```
@MainActor
public final class WarplyWallet {
    /// Everything the wallet shows, as one value: what ``updates`` delivers.
    public struct Snapshot: Sendable, Equatable {
        /// The user's points balance from their profile; `nil` before the first refresh and when no
        /// user is signed in.
        public internal(set) var points: Int?
        /// The active coupons, soonest expiration first; empty when no user is signed in.
        public internal(set) var activeCoupons: [WarplyCoupon] = []
        /// The redeemed coupons, most recently redeemed first.
        public internal(set) var redeemedCoupons: [WarplyCoupon] = []
        /// The campaigns to show: the public ones for a guest, the personalised ones for a user.
        public internal(set) var activeCampaigns: [WarplyCampaign] = []
        /// Whether a refresh is running.
        public internal(set) var isRefreshing = false
        /// Why the last refresh failed (the first failure of its fetches), `nil` after one that
        /// succeeded.
        public internal(set) var lastError: EngageError?
        /// When the last refresh that succeeded ended, on the provider's clock.
        public internal(set) var lastRefreshed: Date?
    }

    /// The user's points balance from their profile; `nil` before the first refresh and when no user
    /// is signed in.
    public var points: Int? { state[\.points] }
    /// The active coupons, soonest expiration first; empty when no user is signed in.
    public var activeCoupons: [WarplyCoupon] { state[\.activeCoupons] }
    /// The redeemed coupons, most recently redeemed first.
    public var redeemedCoupons: [WarplyCoupon] { state[\.redeemedCoupons] }
    /// The campaigns to show (``WarplyProvider/campaigns(language:filters:)``): the public ones for a
    /// guest, the personalised ones for a user.
    public var activeCampaigns: [WarplyCampaign] { state[\.activeCampaigns] }
    /// Whether a refresh is running.
    public var isRefreshing: Bool { state[\.isRefreshing] }
    /// Why the last refresh failed (the first failure of its fetches), `nil` after one that succeeded.
    public var lastError: EngageError? { state[\.lastError] }
    /// When the last refresh that succeeded ended, on the provider's clock.
    public var lastRefreshed: Date? { state[\.lastRefreshed] }
    /// The whole wallet as it is now.
    public var snapshot: Snapshot { state.value }
    /// The wallet as it is now, then again after every change (the newest only, when a reader falls
    /// behind): the form for iOS 16, where SwiftUI cannot observe the object itself. The sequence ends
    /// when the wallet is released.
    public nonisolated var updates: AsyncStream<Snapshot> { state.updates }

    private let state = ObservableModelState(
        Snapshot(),
        fields: [
            .field(\.points), .field(\.activeCoupons), .field(\.redeemedCoupons), .field(\.activeCampaigns), .field(\.isRefreshing),
            .field(\.lastError), .field(\.lastRefreshed),
        ])
    private let provider: ProviderResolver<WarplyProvider>
    private let refreshes = SingleFlight<Void>()
    private var follower: Task<Void, Never>?
    /// Bumped by every login, redemption and logout: a refresh started before shows nothing it fetched.
    private var generation: UInt64 = 0
    /// How many refreshes are running (an outdated one may still be finishing beside a new one).
    private var runningLoads = 0

    /// The operations after which the wallet refreshes itself, and the one after which it empties.
    static let refreshingOperations: Set<String> = ["dei_login", "verify_ticket", "cosmote_user", "update_tokens", "redeem_coupon"]
    static let emptyingOperation = "logout"

    /// A wallet of the provider `provider` reaches, following the operations published on `events`
    /// (the provider's bus): made by the provider, or by the facade before the provider started.
    init(provider: ProviderResolver<WarplyProvider>, events: EventBus) {
        self.provider = provider
        let operations = events.stream(of: OperationEvent.self)
        follower = Task { [weak self] in
            for await event in operations where event.providerID == .warply && event.succeeded {
                guard let self else { return }
                if Self.refreshingOperations.contains(event.operation) {
                    self.startOver()
                    await self.refresh()
                } else if event.operation == Self.emptyingOperation {
                    self.startOver()
                    self.empty()
                }
            }
        }
    }

    deinit {
        follower?.cancel()
    }

    /// Fetches the points, coupons and campaigns at once and shows them. Calls made while a refresh
    /// runs wait for it instead of starting another. Never throws: a failure is in ``lastError``.
    public func refresh() async {
        let flight = refreshes.run { _ in await self.load() }
        _ = try? await flight.task.value
    }

    /// The user or their data changed: a refresh in flight is not joined any more, and what it fetched
    /// (for the session or the coupons as they were) is not shown.
    private func startOver() {
        generation &+= 1
        refreshes.detach()
    }

    private func load() async {
        runningLoads += 1
        state.update { $0.isRefreshing = true }
        defer {
            runningLoads -= 1
            let stillRunning = runningLoads > 0
            state.update { $0.isRefreshing = stillRunning }
        }
        let started = generation
        /// Whether what this load fetched may still be shown.
        func isCurrent() -> Bool { generation == started }
        let provider: WarplyProvider
        do {
            provider = try await self.provider.provider()
        } catch {
            if isCurrent() { state.update { $0.lastError = error } }
            return
        }
        var failure: EngageError?
        async let campaigns = outcome { () async throws(EngageError) in try await provider.campaigns() }
        do {
            if try await provider.isLoggedIn() {
                async let profile = outcome { () async throws(EngageError) in try await provider.profile() }
                async let coupons = outcome { () async throws(EngageError) in try await provider.coupons() }
                switch await profile {
                case let .success(profile): if isCurrent() { state.update { $0.points = profile.points } }
                case let .failure(error): failure = failure ?? error
                }
                switch await coupons {
                case let .success(lists):
                    if isCurrent() {
                        state.update {
                            $0.activeCoupons = lists.active
                            $0.redeemedCoupons = lists.redeemed
                        }
                    }
                case let .failure(error): failure = failure ?? error
                }
            } else if isCurrent() {
                emptyUserData()
            }
        } catch {
            failure = error
        }
        let shownCampaigns = await campaigns
        guard isCurrent() else { return }
        if case let .failure(error) = shownCampaigns { failure = failure ?? error }
        let refreshed = failure == nil ? provider.context.clock.now : nil
        state.update { [failure] snapshot in
            if case let .success(campaigns) = shownCampaigns { snapshot.activeCampaigns = campaigns }
            snapshot.lastError = failure
            if let refreshed { snapshot.lastRefreshed = refreshed }
        }
    }

    /// Logout: the user's data goes, the campaigns stay until the next refresh.
    private func empty() {
        emptyUserData()
        state.update { $0.lastError = nil }
    }

    private func emptyUserData() {
        state.update {
            $0.points = nil
            $0.activeCoupons = []
            $0.redeemedCoupons = []
        }
    }
}

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
extension WarplyWallet: Observable {}

/// What `body` returned or threw, so that fetches run at once can each fail on their own.
private func outcome<Value: Sendable>(_ body: @Sendable () async throws(EngageError) -> Value) async -> Result<Value, EngageError> {
    do {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}

extension WarplyProvider {
    /// The signed-in user's wallet as an observable object, the same one on every read (and the one
    /// `engage.warply.wallet` returns). Call ``WarplyWallet/refresh()`` to fill it; it refreshes itself
    /// after logins and redemptions.
    @MainActor public var wallet: WarplyWallet {
        ProviderModels(self, context: context).wallet
    }
}

extension ProviderModels where Provider == WarplyProvider {
    /// The signed-in user's wallet (see ``WarplyWallet``), the same object on every read: there at once
    /// through `engage.warply.wallet`, empty until Warply runs.
    ///
    /// ```swift
    /// struct PointsBadge: View {
    ///     @Environment(\.engage) private var engage
    ///     var body: some View {
    ///         let wallet = engage.warply.wallet
    ///         Text("\(wallet.points ?? 0) points").task { await wallet.refresh() }
    ///     }
    /// }
    /// ```
    @MainActor public var wallet: WarplyWallet {
        model("warply.wallet") { WarplyWallet(provider: resolver, events: events) }
    }
}
