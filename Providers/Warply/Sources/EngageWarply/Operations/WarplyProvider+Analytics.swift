@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes
import Logging

extension WarplyProvider {
    /// Records an analytics event for Warply (`POST /api/async/analytics/{appUUID}/`): stored in the
    /// durable queue now, delivered in batches in the background. Properties travel as `params`, JSON values as they are
    /// (the product id, price and quantity too, when set). Does nothing when `analyticsEnabled` is off.
    ///
    /// - Throws: `.invalidInput` for an empty or overlong name.
    public func track(_ event: TrackedEvent) async throws(EngageError) {
        try await context.perform(WarplyOperation.track) {
            guard configuration.analyticsEnabled else { return }
            try WarplyInput.identifier(event.name, name: "event name", limit: 128)
            var params = event.properties
            params["kind"] = .string(event.kind.rawValue)
            if let productID = event.productID { params["product_id"] = .string(productID) }
            if let price = event.price { params["price"] = .string(price.description) }
            if let quantity = event.quantity { params["quantity"] = .string(String(quantity)) }
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
///
/// Warply refuses a whole batch for one event it will not take. A refused batch is split in halves,
/// each sent again (in order), until the events the server refuses stand alone: only those are
/// dropped, the rest are delivered (about `2 log2(n)` extra requests for one bad event among `n`). A
/// failure that says nothing about the events (see `DurableQueue.isRejection`) stops the batch: the
/// events sent in that request are kept, the ones not yet sent are left untried.
struct WarplyAnalyticsDeliverer: QueueDelivering {
    let client: WarplyClient
    let logger: Logger

    func deliver(_ batch: [QueuedEvent]) async throws {
        var readable: [(id: Int64, event: WarplyAnalyticsRequest.Event)] = []
        var rejections: [Int64: EngageError] = [:]
        for queued in batch {
            do {
                readable.append((queued.id, try JSONDecoder().decode(WarplyAnalyticsRequest.Event.self, from: queued.payload)))
            } catch {
                // A payload this version cannot read is dropped and reported rather than blocking the queue.
                rejections[queued.id] =
                    (error as? DecodingError).map {
                        EngageError(decodingError: $0, providerID: .warply, what: "queued Warply analytics event")
                    }
                    ?? EngageError(
                        .decoding, "A queued Warply analytics event cannot be read.", providerID: .warply, underlyingError: error)
            }
        }
        if !rejections.isEmpty {
            logger.warning("Dropping unreadable queued Warply analytics events", metadata: ["count": "\(rejections.count)"])
        }
        var delivered: Set<Int64> = []
        // Slices still to send, in queue order; a refused slice is replaced by its two halves.
        var slices = readable.isEmpty ? [] : [readable[...]]
        while let slice = slices.first {
            slices.removeFirst()
            do {
                try await client.status(
                    .post, WarplyWire.path(.analytics, appUUID: client.appUUID),
                    body: .json(WarplyAnalyticsRequest(events: slice.map(\.event))),
                    credentials: .signed, operation: .analytics
                )
                delivered.formUnion(slice.map(\.id))
            } catch {
                let failure = EngageError.wrapping(error, providerID: .warply)
                guard DurableQueue.isRejection(failure) else {
                    let untried = Set(slices.flatMap { $0.map(\.id) })
                    throw PartialDeliveryError(deliveredIDs: delivered, rejections: rejections, untriedIDs: untried, failure: failure)
                }
                guard slice.count > 1 else {
                    rejections[slice[slice.startIndex].id] = failure
                    continue
                }
                let middle = slice.startIndex + slice.count / 2
                slices.insert(contentsOf: [slice[..<middle], slice[middle...]], at: 0)
            }
        }
        if let refused = rejections.values.first {
            throw PartialDeliveryError(deliveredIDs: delivered, rejections: rejections, failure: refused)
        }
    }
}
