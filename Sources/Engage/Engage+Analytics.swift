@_spi(EngageProvider) import EngageCore
import Foundation

/// Analytics consent and delivery: what every analytics SDK lets an app do.
extension Engage {
    /// Turns analytics on or off for every provider (`provider` nil) or for one, and remembers the
    /// choice across launches.
    ///
    /// While it is off, events tracked for the providers concerned (through ``track(_:)`` or a
    /// provider's own calls) are discarded as they are tracked, nothing queued is delivered, and
    /// providers send no telemetry of their own. `purgeQueued` also deletes what was queued before;
    /// without it, what was queued is delivered when analytics is turned back on. Turning it on
    /// globally keeps the providers switched off one by one off.
    ///
    /// ```swift
    /// try await engage.setAnalyticsEnabled(false, purgeQueued: true)   // the user declined tracking
    /// try await engage.setAnalyticsEnabled(false, for: .crobox)        // or only for one provider
    /// ```
    ///
    /// - Throws: `.storage` when the choice or the purge cannot be written (the choice still applies to
    ///   this run).
    public func setAnalyticsEnabled(_ enabled: Bool, for provider: ProviderID? = nil, purgeQueued: Bool = false) async throws(EngageError) {
        try refuseIfUnconfigured("setAnalyticsEnabled")
        try registry.consent.setEnabled(enabled, for: provider)
        let globally = registry.consent.isEnabled(for: nil)
        stateTracker.update { $0.isAnalyticsEnabled = globally }
        events.publish(
            NamedEvent(
                "analytics_consent_changed", providerID: provider,
                attributes: ["enabled": String(enabled), "purged": String(purgeQueued && !enabled)]
            ))
        if enabled {
            await registry.analytics.scheduleFlushSoon(after: .zero)
        } else if purgeQueued {
            try await registry.analytics.purge(provider: provider)
        }
    }

    /// Whether analytics is on globally (`provider` nil), or for `provider` (on globally and for it).
    public func isAnalyticsEnabled(for provider: ProviderID? = nil) -> Bool {
        !isUnconfiguredStandIn && registry.consent.isEnabled(for: provider)
    }

    /// Delivers every queued analytics event now, for every provider whose analytics is on, and
    /// returns when each destination has delivered or failed (see `DurableQueue.flush(destination:)`).
    /// Apps call it before a point where the process may end, such as a logout or going to the
    /// background; the queue also flushes on its own every `analytics.flushIntervalSeconds`.
    @discardableResult
    public func flush() async -> QueueFlushReport {
        await registry.analytics.flush()
    }
}

/// The anonymous id, and forgetting the user everywhere.
extension Engage {
    /// This installation's anonymous id, a lowercase UUID: made on first use, kept across launches,
    /// and replaced by ``reset()``. It is the app's, for its support screens and its own analytics;
    /// no backend receives it. Each provider that needs an id before a login (Crobox's visitor id,
    /// Warply's and Youll's device ids) receives one derived from it and different for every provider,
    /// so ``reset()`` renews them all while no two backends can join their records. An id a provider
    /// stored before this version keeps being used until the next ``reset()``.
    ///
    /// ```swift
    /// let supportCode = try engage.anonymousID.prefix(8)  // for the app's "contact us" screen
    /// ```
    ///
    /// - Throws: `.notConfigured` on the stand-in `Engage.shared` returns before `configure`;
    ///   `.storage` when the id cannot be read, or a new one cannot be stored.
    public var anonymousID: String {
        get throws(EngageError) {
            try refuseIfUnconfigured("anonymousID")
            return try registry.anonymousID.value()
        }
    }

    /// Forgets the user in every provider, as an app does when the user deletes their account or
    /// signs out for good: ``anonymousID`` is replaced, each `Resettable` provider resets (logs out,
    /// deletes what it keeps about the user, starts over with new ids derived from the new anonymous
    /// id: Crobox a new visitor id, Warply a new device id and registration), each other identity-aware
    /// provider logs out (Youll with a new device id), every queued analytics event is deleted, and so
    /// is whatever the storage kept aside as unreadable (damaged rows, moved-aside database files). The
    /// analytics consent is kept: it is the user's choice, not their data.
    ///
    /// A provider that fails is in the report's `failures` and the others go on; the queue is purged
    /// in any case.
    ///
    /// - Throws: `.storage` only when the analytics queue or the damaged rows cannot be deleted, or the
    ///   new anonymous id cannot be stored (it is used until the app quits, and the reset goes on).
    public func reset() async throws(EngageError) -> AggregateReport {
        try await awaitStart(for: "reset")
        // First, so that the providers' new ids derive from the new anonymous id.
        var anonymousIDFailure: EngageError?
        do {
            try registry.anonymousID.renew()
        } catch {
            anonymousIDFailure = error
        }
        var report = AggregateReport()
        let providers = await registry.providers
        await withTaskGroup(of: (ProviderID, EngageError?).self) { group in
            for provider in providers {
                let id = type(of: provider).descriptor.id
                let action: (@Sendable () async throws -> Void)?
                if let resettable = provider as? any Resettable {
                    action = { try await resettable.reset() }
                } else if let identity = provider as? any IdentityAware {
                    action = { try await identity.logOut() }
                } else {
                    action = nil
                }
                guard let action else { continue }
                group.addTask {
                    do {
                        try await action()
                        return (id, nil)
                    } catch {
                        return (id, EngageError.wrapping(error, providerID: id))
                    }
                }
            }
            for await (id, failure) in group {
                if let failure { report.failures[id] = failure } else { report.succeeded.append(id) }
            }
        }
        let order = providers.map { type(of: $0).descriptor.id }
        report.succeeded.sort { (order.firstIndex(of: $0) ?? 0) < (order.firstIndex(of: $1) ?? 0) }
        try await registry.analytics.purge()
        // What was kept aside for damage holds the user's data too (queued payloads in plain text,
        // sealed values, whole database files).
        do {
            try await registry.database.removeDamagedCopies()
        } catch {
            throw EngageError.wrapping(error, providerID: nil)
        }
        stateTracker.update { $0.user = nil }
        events.publish(
            NamedEvent("engage_reset", attributes: ["failed": report.failures.keys.map(\.rawValue).sorted().joined(separator: ",")]))
        if let anonymousIDFailure { throw anonymousIDFailure }
        return report
    }
}
