import EngageCore
import Foundation
import HTTPTypes
import Logging

extension WarplyProvider {
    /// Records an analytics event for Warply (`POST /api/async/analytics/{appUUID}/`): stored in the
    /// durable queue now, delivered in batches in the background. Properties travel as `params`
    /// (the product id, price and quantity too, when set). Does nothing when `analyticsEnabled` is off.
    ///
    /// - Throws: `.invalidInput` for an empty or overlong name.
    public func track(_ event: TrackedEvent) async throws(EngageError) {
        try await context.perform("track") {
            guard configuration.analyticsEnabled else { return }
            try WarplyInput.identifier(event.name, name: "event name", limit: 128)
            var params = event.properties
            params["kind"] = event.kind.rawValue
            if let productID = event.productID { params["product_id"] = productID }
            if let price = event.price { params["price"] = price.description }
            if let quantity = event.quantity { params["quantity"] = String(quantity) }
            let key = UUID().uuidString.lowercased()
            let stored = WarplyAnalyticsRequest.Event(
                eventID: key, eventName: event.name, timeSubmitted: WarplyTimestamp(event.occurredAt).text, params: params
            )
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            _ = try await context.analytics.enqueue(try encoder.encode(stored), destination: Self.eventDestination, idempotencyKey: key)
            await context.analytics.scheduleFlushSoon(after: .milliseconds(200))
        }
    }
}

/// Delivers queued Warply analytics events as one batch per flush. Each event carries its idempotency
/// key as `event_id`, so a batch resent after a lost answer is not counted twice by the server.
struct WarplyAnalyticsDeliverer: QueueDelivering {
    let client: WarplyClient
    let logger: Logger

    func deliver(_ batch: [QueuedEvent]) async throws {
        var events: [WarplyAnalyticsRequest.Event] = []
        for queued in batch {
            do {
                events.append(try JSONDecoder().decode(WarplyAnalyticsRequest.Event.self, from: queued.payload))
            } catch {
                // A payload this version cannot read is skipped rather than blocking the queue.
                logger.warning("Dropping an unreadable queued Warply analytics event", metadata: ["id": "\(queued.id)"])
            }
        }
        guard !events.isEmpty else { return }
        try await client.status(
            .post, WarplyWire.path(.analytics, appUUID: client.appUUID), body: .json(WarplyAnalyticsRequest(events: events)),
            credentials: .signed, operation: "analytics", repeatable: true
        )
    }
}
