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
///
/// It is registered only once the providers have started, so a flush that runs before (a provider's
/// own, a background task's) passes the staged events over instead of handing them to a fan-out that
/// is still waiting for readiness.
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
        var delivered = Set<Int64>()
        var rejections: [Int64: EngageError] = [:]
        for (index, queued) in batch.enumerated() {
            // An event this version cannot read is dropped: it was written by this code, so it is damaged.
            guard let event = try? decoder.decode(TrackedEvent.self, from: queued.payload) else {
                rejections[queued.id] = EngageError(.decoding, "A staged event could not be read.")
                continue
            }
            do {
                // The providers enqueue it in their own durable destinations; a provider's failure to
                // store it is in the fan-out's report, not retried here (the others have it already).
                _ = try await engage.trackReady(event)
                delivered.insert(queued.id)
            } catch {
                // The fan-out as a whole failed. With no provider here that tracks events and none that
                // failed to start, nothing will ever take them: dropped (and reported). Otherwise (a
                // tracking provider that failed to start, a cancelled flush) this one and the rest stay.
                if error.code == .unsupported, await engage.waitUntilReady().failures.isEmpty {
                    rejections[queued.id] = error
                    continue
                }
                throw PartialDeliveryError(
                    deliveredIDs: delivered, rejections: rejections, untriedIDs: Set(batch[(index + 1)...].map(\.id)), failure: error)
            }
        }
        guard rejections.isEmpty else {
            throw PartialDeliveryError(
                deliveredIDs: delivered, rejections: rejections,
                failure: EngageError(.decoding, "Some staged events could not be delivered."))
        }
    }
}
