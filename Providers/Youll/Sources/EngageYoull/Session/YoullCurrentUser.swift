@_spi(EngageProvider) import EngageCore
import Foundation
import Observation

/// The user behind Youll's session as an `@Observable` object for SwiftUI: who is signed in and their
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
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor @Observable
public final class YoullCurrentUser {
    /// Whether the session has a signed-in user (rather than a guest).
    public private(set) var isSignedIn = false
    /// The signed-in user's id, `nil` for a guest.
    public private(set) var userID: String?
    /// The signed-in user's profile, once loaded; `nil` for a guest.
    public private(set) var profile: YoullProfile?
    /// Whether the profile is loading.
    public private(set) var isLoading = false
    /// Why the last load failed; `nil` after one that succeeded.
    public private(set) var lastError: EngageError?

    @ObservationIgnored private let provider: ProviderResolver<YoullProvider>
    @ObservationIgnored private let loads = SingleFlight<Void>()
    @ObservationIgnored private var followers: [Task<Void, Never>] = []
    /// Bumped by every session change and every operation that changes the user: a load started
    /// before shows nothing it read.
    @ObservationIgnored private var generation: UInt64 = 0

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
            if generation == started { lastError = error }
            return
        }
        let session = provider.session
        let signedIn = await session.isLoggedIn
        let userID = await session.userInfo().userID
        guard generation == started else { return }
        isSignedIn = signedIn
        self.userID = signedIn ? userID : nil
        guard signedIn else {
            profile = nil
            lastError = nil
            return
        }
        isLoading = true
        defer { if generation == started { isLoading = false } }
        do {
            let loaded = try await provider.fetch(.profile())
            // A session handed over meanwhile is loaded by its own refresh.
            guard await provider.session.userInfo().userID == userID, generation == started else { return }
            profile = loaded
            lastError = nil
        } catch {
            if generation == started { lastError = error }
        }
    }

    private func empty() {
        isLoading = false
        isSignedIn = false
        userID = nil
        profile = nil
        lastError = nil
    }
}

extension YoullProvider {
    /// The session's user and profile as an `@Observable` object, the same one on every read (and the
    /// one `engage.youll.currentUser` returns).
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    @MainActor public var currentUser: YoullCurrentUser {
        ProviderModels(self, context: context).currentUser
    }
}

extension ProviderModels where Provider == YoullProvider {
    /// The session's user and profile (see ``YoullCurrentUser``), the same object on every read: there
    /// at once through `engage.youll.currentUser`, a guest until Youll runs.
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    @MainActor public var currentUser: YoullCurrentUser {
        model("youll.currentUser") { YoullCurrentUser(provider: resolver, events: events) }
    }
}
