@_spi(EngageProvider) import EngageCore
import Foundation

/// A weak reference to an `Engage`, for the closures and deliverers an instance hands to its own
/// registry (a strong one would keep the instance alive forever).
struct WeakEngage: Sendable {
    weak var value: Engage?

    init(_ value: Engage) {
        self.value = value
    }
}

/// Delivers the events tracked before the providers were ready: they wait in the durable queue under
/// `engage.staged-events` (on disk at once, like any event) and are handed to every tracking provider
/// when the instance becomes ready, in the order they were tracked.
final class StagedEventsDeliverer: QueueDelivering {
    /// The queue destination of staged events (the core's namespace, which no provider may use).
    static let destination = "engage.staged-events"

    /// Set once the instance exists.
    let engage = Locked<WeakEngage?>(nil)

    func deliver(_ batch: [QueuedEvent]) async throws {
        guard let engage = engage.value?.value else {
            throw EngageError(.notConfigured, "The EngageKit instance is gone.", isRetryable: true)
        }
        let decoder = JSONDecoder()
        for queued in batch {
            // An event this version cannot read is dropped: it was written by this code, so it is damaged.
            guard let event = try? decoder.decode(TrackedEvent.self, from: queued.payload) else { continue }
            // The providers enqueue it in their own durable destinations; a provider's failure to store
            // it is logged by the fan-out's report, not retried here (the others have it already).
            _ = try? await engage.trackReady(event)
        }
    }
}
