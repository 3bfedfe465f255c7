import Foundation
import Logging

/// The user's analytics choice: whether events may be collected and delivered, for every provider
/// and per provider. Kept in the registry's database, so a choice survives restarts.
///
/// While analytics is off for a provider (or globally), the durable queue stores none of its events
/// (they are discarded as they are tracked) and delivers none of those already queued; turning it back
/// on resumes delivery of what was kept. Purging (``DurableQueue/purge(provider:)``) deletes what is
/// queued. A destination belongs to the provider whose id starts its name (`crobox.events` is
/// Crobox's), the convention every provider follows.
///
/// Apps use `Engage.setAnalyticsEnabled(_:for:purgeQueued:)`; providers that send analytics outside the
/// queue check ``isEnabled(for:)`` through `ProviderContext.consent`.
public final class AnalyticsConsent: Sendable {
    /// What is stored: the global switch and the providers switched off on their own.
    struct State: Codable, Equatable {
        var isEnabled = true
        var disabledProviders: Set<String> = []
    }

    private static let key = "analytics_consent"
    private let state: Locked<State>
    private let storage: StorageNamespace?

    /// A consent read from `storage` (the core namespace), or one that allows everything and keeps
    /// nothing when `storage` is `nil`. A stored choice that cannot be read counts as "off" (failing
    /// closed: an opted-out user is never tracked because of a damaged row) and is logged.
    @_spi(EngageProvider) public init(storage: StorageNamespace?, logger: Logger? = nil) {
        self.storage = storage
        var stored = State()
        if let storage {
            do {
                stored = try storage.value(State.self, forKey: Self.key) ?? State()
            } catch {
                stored.isEnabled = false
                logger?.error("The stored analytics consent cannot be read: analytics stays off until the app sets it again")
            }
        }
        state = Locked(stored)
    }

    /// Whether analytics is on globally (`provider` nil), or for `provider` (on globally and for it).
    public func isEnabled(for provider: ProviderID? = nil) -> Bool {
        state.withLock { state in
            guard state.isEnabled else { return false }
            return provider.map { !state.disabledProviders.contains($0.rawValue) } ?? true
        }
    }

    /// Whether events of `destination` may be stored and delivered now.
    public func allows(destination: String) -> Bool {
        isEnabled(for: Self.owner(ofDestination: destination))
    }

    /// Turns analytics on or off globally (`provider` nil) or for one provider, and stores the choice.
    /// Turning it on globally keeps the providers switched off on their own off.
    ///
    /// - Throws: `.storage` when the choice cannot be stored; the choice then applies to this run only.
    public func setEnabled(_ enabled: Bool, for provider: ProviderID? = nil) throws(EngageError) {
        let updated = state.withLock { state -> State in
            if let provider {
                if enabled { state.disabledProviders.remove(provider.rawValue) } else { state.disabledProviders.insert(provider.rawValue) }
            } else {
                state.isEnabled = enabled
            }
            return state
        }
        do {
            try storage?.setValue(updated, forKey: Self.key)
        } catch {
            throw EngageError(
                .storage, "The analytics consent could not be stored; it applies until the app quits.", underlyingError: error)
        }
    }

    /// The provider a destination belongs to: the part of its name before the first `.`.
    public static func owner(ofDestination destination: String) -> ProviderID {
        ProviderID(rawValue: String(destination.prefix { $0 != "." }))
    }
}
