@_spi(EngageProvider) import EngageCore
import Foundation
import Observation

/// The user behind Youll's session as an observable object for SwiftUI: who is signed in and their
/// profile.
///
/// ```swift
/// struct ProfileBadge: View {
///     let user: YoullCurrentUser  // youll.currentUser
///     var body: some View {
///         if let profile = user.profile {
///             Text("\(profile.name): \(profile.stats["streak", default: 0]) days in a row")
///         } else {
///             Text(user.isSignedIn ? "Loading…" : "Browsing as a guest")
///         }
///     }
/// }
/// ```
///
/// It reloads the profile when the host app hands over a session (``YoullProvider/setSession(_:)``)
/// and after the user's registration or a new profile picture, and empties itself at log-out or
/// account deletion. ``refresh()`` reloads it on demand. The profile is read with the provider's
/// default cache policy.
///
/// On iOS 17, macOS 14 and later it is `Observable`; on every OS, iOS 16 included, ``updates`` delivers
/// it as a ``Snapshot`` after each change
/// (`.task { for await snapshot in user.updates { profile = snapshot.profile } }`).
@MainActor
public final class YoullCurrentUser {
    /// Everything the object shows, as one value: what ``updates`` delivers.
    public struct Snapshot: Sendable, Equatable {
        /// Whether the session has a signed-in user (rather than a guest).
        public internal(set) var isSignedIn = false
        /// The signed-in user's id, `nil` for a guest.
        public internal(set) var userID: String?
        /// The signed-in user's profile, once loaded; `nil` for a guest.
        public internal(set) var profile: YoullProfile?
        /// Whether the profile is loading.
        public internal(set) var isLoading = false
        /// Why the last load failed; `nil` after one that succeeded.
        public internal(set) var lastError: EngageError?
    }

    /// Whether the session has a signed-in user (rather than a guest).
    public var isSignedIn: Bool { state[\.isSignedIn] }
    /// The signed-in user's id, `nil` for a guest.
    public var userID: String? { state[\.userID] }
    /// The signed-in user's profile, once loaded; `nil` for a guest.
    public var profile: YoullProfile? { state[\.profile] }
    /// Whether the profile is loading.
    public var isLoading: Bool { state[\.isLoading] }
    /// Why the last load failed; `nil` after one that succeeded.
    public var lastError: EngageError? { state[\.lastError] }
    /// The whole object as it is now.
    public var snapshot: Snapshot { state.value }
    /// The user as they are now, then again after every change (the newest only, when a reader falls
    /// behind): the form for iOS 16, where SwiftUI cannot observe the object itself. The sequence ends
    /// when the object is released.
    public nonisolated var updates: AsyncStream<Snapshot> { state.updates }

    private let state = ObservableModelState(
        Snapshot(), fields: [.field(\.isSignedIn), .field(\.userID), .field(\.profile), .field(\.isLoading), .field(\.lastError)])
    private let provider: ProviderResolver<YoullProvider>
    private let loads = SingleFlight<Void>()
    private var followers: [Task<Void, Never>] = []
    /// Bumped by every session change and every operation that changes the user: a load started
    /// before shows nothing it read.
    private var generation: UInt64 = 0

    /// The operations after which the profile is reloaded, and those after which it is emptied.
    static let reloadingOperations: Set<String> = ["register_user", "upload_profile_picture"]
    static let emptyingOperations: Set<String> = ["log_out", "delete_account"]

    /// The user of the provider `provider` reaches, following the operations published on `events`
    /// (the provider's bus): made by the provider, or by the facade before the provider started.
    init(provider: ProviderResolver<YoullProvider>, events: EventBus) {
        self.provider = provider
        let operations = events.stream(of: OperationEvent.self)
        followers = [
            Task { [weak self] in
                // Once the provider runs (at once for a model the provider made).
                guard let sessions = try? await provider.provider().sessionChanges.updates() else { return }
                // The first value is the session in place now: load it too.
                for await _ in sessions {
                    guard let self else { return }
                    self.startOver()
                    await self.refresh()
                }
            },
            Task { [weak self] in
                for await event in operations where event.providerID == .youll && event.succeeded {
                    guard let self else { return }
                    if Self.reloadingOperations.contains(event.operation) {
                        self.startOver()
                        await self.refresh()
                    } else if Self.emptyingOperations.contains(event.operation) {
                        self.startOver()
                        self.empty()
                    }
                }
            },
        ]
    }

    deinit {
        for follower in followers { follower.cancel() }
    }

    /// Reads the session's user and, for a signed-in user, loads the profile. Calls made while a load
    /// runs wait for it. Never throws: a failure is in ``lastError``.
    public func refresh() async {
        let flight = loads.run { _ in await self.load() }
        _ = try? await flight.task.value
    }

    /// The session or the user changed: a load in flight is not joined any more, and what it read (for
    /// the user as they were) is not shown.
    private func startOver() {
        generation &+= 1
        loads.detach()
    }

    private func load() async {
        let started = generation
        let provider: YoullProvider
        do {
            provider = try await self.provider.provider()
        } catch {
            if generation == started { state.update { $0.lastError = error } }
            return
        }
        let session = provider.session
        let signedIn = await session.isLoggedIn
        let userID = await session.userInfo().userID
        guard generation == started else { return }
        state.update {
            $0.isSignedIn = signedIn
            $0.userID = signedIn ? userID : nil
            if !signedIn {
                $0.profile = nil
                $0.lastError = nil
            }
        }
        guard signedIn else { return }
        state.update { $0.isLoading = true }
        defer { if generation == started { state.update { $0.isLoading = false } } }
        do {
            let loaded = try await provider.fetch(.profile())
            // A session handed over meanwhile is loaded by its own refresh.
            guard await provider.session.userInfo().userID == userID, generation == started else { return }
            state.update {
                $0.profile = loaded
                $0.lastError = nil
            }
        } catch {
            if generation == started { state.update { $0.lastError = error } }
        }
    }

    private func empty() {
        state.update { $0 = Snapshot() }
    }
}

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
extension YoullCurrentUser: Observable {}

extension YoullProvider {
    /// The session's user and profile as an observable object, the same one on every read (and the
    /// one `engage.youll.currentUser` returns).
    @MainActor public var currentUser: YoullCurrentUser {
        ProviderModels(self, context: context).currentUser
    }
}

extension ProviderModels where Provider == YoullProvider {
    /// The session's user and profile (see ``YoullCurrentUser``), the same object on every read: there
    /// at once through `engage.youll.currentUser`, a guest until Youll runs.
    @MainActor public var currentUser: YoullCurrentUser {
        model("youll.currentUser") { YoullCurrentUser(provider: resolver, events: events) }
    }
}
