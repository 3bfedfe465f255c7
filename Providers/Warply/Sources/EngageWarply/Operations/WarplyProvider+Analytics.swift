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
        var sent: Set<Int64> = []
        var rejections: [Int64: EngageError] = [:]
        for queued in batch {
            do {
                events.append(try JSONDecoder().decode(WarplyAnalyticsRequest.Event.self, from: queued.payload))
                sent.insert(queued.id)
            } catch {
                // A payload this version cannot read is dropped and reported rather than blocking the queue.
                rejections[queued.id] = (error as? DecodingError).map {
                    EngageError(decodingError: $0, providerID: .warply, what: "queued Warply analytics event")
                } ?? EngageError(.decoding, "A queued Warply analytics event cannot be read.", providerID: .warply, underlyingError: error)
            }
        }
        if !events.isEmpty {
            do {
                try await client.status(
                    .post, WarplyWire.path(.analytics, appUUID: client.appUUID), body: .json(WarplyAnalyticsRequest(events: events)),
                    credentials: .signed, operation: "analytics", repeatable: true
                )
            } catch {
                // The unreadable events are dropped whatever happened to the others.
                guard !rejections.isEmpty else { throw error }
                throw PartialDeliveryError(deliveredIDs: [], rejections: rejections, failure: EngageError.wrapping(error, providerID: .warply))
            }
        }
        if let unreadable = rejections.values.first {
            logger.warning("Dropping unreadable queued Warply analytics events", metadata: ["count": "\(rejections.count)"])
            throw PartialDeliveryError(deliveredIDs: sent, rejections: rejections, failure: unreadable)
        }
    }
}
