@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes
import Logging

extension CroboxProvider {
    /// Sends `event` as a request of `page`: the request is built now (counter, timestamp) and stored
    /// in the durable queue, then delivered in the background; this returns once it is stored.
    ///
    /// - Throws: `.invalidInput` for an event that cannot be sent (empty product id, negative price…);
    ///   `.storage` if it cannot be stored.
    public func send(_ event: CroboxEvent, on page: CroboxPage) async throws(EngageError) {
        try await context.perform(event.operation) {
            let issues = event.validationIssues()
            guard issues.isEmpty else {
                throw EngageError(.invalidInput, "The Crobox event cannot be sent: " + issues.joined(separator: " "), providerID: .crobox)
            }
            let query = eventQuery(event, page: page)
            _ = try await context.analytics.enqueue(Data(query.utf8), destination: Self.eventDestination)
            await context.analytics.scheduleFlushSoon(after: .milliseconds(200))
        }
    }

    /// The encoded query of `event` on `page`, with the checksum when configured.
    func eventQuery(_ event: CroboxEvent, page: CroboxPage) -> String {
        let items =
            commonQueryItems(page: page, at: context.clock.now)
            + event.queryItems(dialect: configuration.dialect)
            + customPropertyItems(page: page, event: event.customProperties)
        var query = CroboxWire.encodeQuery(items)
        if configuration.includesChecksum {
            query += "&\(CroboxWire.Key.checksum)=\(CroboxWire.checksum(ofEncodedQuery: query))"
        }
        return query
    }
}

/// Sends queued Crobox events one by one as `GET /socket.gif?<query>`.
///
/// Events carry no idempotency key Crobox understands, so the deliverer reports exactly what happened
/// to each event (`PartialDeliveryError`): delivered ones are never sent again; an answer that rejects
/// the event (`DurableQueue.isRejection`) drops that event alone (it is reported, the others go on);
/// any other failure stops the batch: the failing event and the ones after it, never sent, wait in
/// order while the destination pauses. No error event is generated for a failed delivery.
struct CroboxEventDeliverer: QueueDelivering {
    let client: APIClient
    let logger: Logger

    func deliver(_ batch: [QueuedEvent]) async throws {
        var delivered: Set<Int64> = []
        var rejections: [Int64: EngageError] = [:]
        for (index, event) in batch.enumerated() {
            do {
                let query = String(decoding: event.payload, as: UTF8.self)
                // The query was encoded (and checksummed) when the event was tracked: send it verbatim.
                _ = try await client.data(
                    .get, "/socket.gif", encodedQuery: query, options: RequestOptions(operation: CroboxOperation.event))
                delivered.insert(event.id)
            } catch {
                let failure = EngageError.wrapping(error, providerID: .crobox)
                guard !DurableQueue.isRejection(failure) else {
                    // This event is refused for good: drop it alone and go on with the others.
                    rejections[event.id] = failure
                    continue
                }
                // Crobox is failing for now: this event is retried later, the ones after it were never sent.
                let untried = Set(batch[(index + 1)...].map(\.id))
                throw PartialDeliveryError(deliveredIDs: delivered, rejections: rejections, untriedIDs: untried, failure: failure)
            }
        }
        if let last = rejections.values.first {
            throw PartialDeliveryError(deliveredIDs: delivered, rejections: rejections, failure: last)
        }
    }
}
