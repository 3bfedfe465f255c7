@_spi(EngageProvider) import EngageCore
import Foundation
import Logging
import Observation

/// What an app shows about an EngageKit instance at one moment: whether its providers have started
/// and how each one's start went, who is signed in, the user's analytics choice, and how many events
/// wait in the analytics queue.
///
/// ``Engage/stateUpdates`` delivers one on every change (any OS version); ``Engage/state`` holds the
/// latest in an `@Observable` object for SwiftUI (iOS 17, macOS 14 and later).
public struct EngageStateSnapshot: Sendable, Equatable {
    /// Whether every provider has started or failed (``Engage/waitUntilReady()`` would return at once).
    public var isReady: Bool
    /// The providers that started, in registration order; empty until ready.
    public var startedProviders: [ProviderID]
    /// The providers that failed to start, or whose configuration section was refused, and why.
    public var failedProviders: [ProviderID: EngageError]
    /// The user of the last ``Engage/logIn(_:)`` that reached the providers; `nil` after
    /// ``Engage/logOut()`` or ``Engage/reset()``. Its description hides the e-mail and attributes.
    public var user: UserIdentity?
    /// Whether analytics is on globally (``Engage/isAnalyticsEnabled(for:)`` with no provider).
    public var isAnalyticsEnabled: Bool
    /// Queued analytics events per provider (`engage` for events tracked before the providers were
    /// ready); providers with none are left out.
    public var pendingEvents: [ProviderID: Int]

    /// All queued analytics events.
    public var pendingEventCount: Int { pendingEvents.values.reduce(0, +) }

    /// A snapshot with these values.
    public init(
        isReady: Bool = false, startedProviders: [ProviderID] = [], failedProviders: [ProviderID: EngageError] = [:],
        user: UserIdentity? = nil, isAnalyticsEnabled: Bool = true, pendingEvents: [ProviderID: Int] = [:]
    ) {
        self.isReady = isReady
        self.startedProviders = startedProviders
        self.failedProviders = failedProviders
        self.user = user
        self.isAnalyticsEnabled = isAnalyticsEnabled
        self.pendingEvents = pendingEvents
    }
}

/// The latest ``EngageStateSnapshot`` of an instance, as an `@Observable` object: a SwiftUI view that
/// reads a property is redrawn when that property changes.
///
/// ```swift
/// struct EngageStatusView: View {
///     let state = Engage.shared.state
///     var body: some View {
///         if !state.isReady { ProgressView() }
///         Text(state.user?.userID ?? "signed out")
///         Text("\(state.pendingEventCount) events waiting")
///     }
/// }
/// ```
///
/// It is updated on the main actor, after the change (a few microseconds later, in the next turn of
/// the main actor).
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor @Observable
public final class EngageState {
    /// ``EngageStateSnapshot/isReady``.
    public private(set) var isReady = false
    /// ``EngageStateSnapshot/startedProviders``.
    public private(set) var startedProviders: [ProviderID] = []
    /// ``EngageStateSnapshot/failedProviders``.
    public private(set) var failedProviders: [ProviderID: EngageError] = [:]
    /// ``EngageStateSnapshot/user``.
    public private(set) var user: UserIdentity?
    /// ``EngageStateSnapshot/isAnalyticsEnabled``.
    public private(set) var isAnalyticsEnabled = true
    /// ``EngageStateSnapshot/pendingEvents``.
    public private(set) var pendingEvents: [ProviderID: Int] = [:]

    /// ``EngageStateSnapshot/pendingEventCount``.
    public var pendingEventCount: Int { pendingEvents.values.reduce(0, +) }

    /// The same values as one snapshot.
    public var snapshot: EngageStateSnapshot {
        EngageStateSnapshot(
            isReady: isReady, startedProviders: startedProviders, failedProviders: failedProviders, user: user,
            isAnalyticsEnabled: isAnalyticsEnabled, pendingEvents: pendingEvents)
    }

    /// An object that follows `updates` until they end (the instance shut down).
    init(following updates: AsyncStream<EngageStateSnapshot>) {
        Task { @MainActor [weak self] in
            for await snapshot in updates {
                guard let self else { return }
                self.apply(snapshot)
            }
        }
    }

    /// Sets each property that changed, so observers of the others are not woken.
    private func apply(_ snapshot: EngageStateSnapshot) {
        if isReady != snapshot.isReady { isReady = snapshot.isReady }
        if startedProviders != snapshot.startedProviders { startedProviders = snapshot.startedProviders }
        if failedProviders != snapshot.failedProviders { failedProviders = snapshot.failedProviders }
        if user != snapshot.user { user = snapshot.user }
        if isAnalyticsEnabled != snapshot.isAnalyticsEnabled { isAnalyticsEnabled = snapshot.isAnalyticsEnabled }
        if pendingEvents != snapshot.pendingEvents { pendingEvents = snapshot.pendingEvents }
    }
}

extension Engage {
    /// The instance's state now, then after every change, until it shuts down: the readiness and each
    /// provider's start outcome, the signed-in user, the analytics choice and the queue's pending
    /// counts. A reader that falls behind gets the newest snapshot. Works on every OS version; on
    /// iOS 17 and later, SwiftUI reads ``state`` instead.
    ///
    /// ```swift
    /// for await snapshot in engage.stateUpdates {
    ///     badge.text = snapshot.pendingEventCount == 0 ? nil : "\(snapshot.pendingEventCount)"
    /// }
    /// ```
    public var stateUpdates: AsyncStream<EngageStateSnapshot> {
        followPendingCounts()
        return stateTracker.updates()
    }

    /// The state now, without waiting.
    public var currentState: EngageStateSnapshot { stateTracker.value }

    /// The instance's state as an `@Observable` object on the main actor, the same one on every read.
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
    @MainActor public var state: EngageState {
        observableState.value { EngageState(following: stateUpdates) }
    }

    /// Starts following the queue's pending counts into the state (once; nothing is observed before
    /// the first subscriber).
    private func followPendingCounts() {
        guard !isUnconfiguredStandIn else { return }
        pendingCountsTask.withLock { task in
            guard task == nil else { return }
            let counts = registry.analytics.pendingCountsByProvider()
            let tracker = stateTracker
            let logger = registry.environment.logger.configured(level: registry.configuration.logLevel)
            task = Task {
                do {
                    for try await pending in counts {
                        tracker.update { $0.pendingEvents = pending.filter { $0.value > 0 } }
                    }
                } catch is CancellationError {
                } catch {
                    logger.warning("The analytics queue's pending counts could not be observed", metadata: ["error": "\(error)"])
                }
            }
        }
    }
}

/// Keeps an instance's current snapshot and hands every change to its subscribers, in order.
typealias StateTracker = StateBroadcaster<EngageStateSnapshot>
