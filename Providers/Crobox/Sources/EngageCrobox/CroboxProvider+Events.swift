import EngageCore
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
        try await context.perform(event.operationName) {
            let issues = event.validationIssues()
            guard issues.isEmpty else {
                throw EngageError(.invalidInput, "The Crobox event cannot be sent: " + issues.joined(separator: " "), providerID: .crobox)
            }
            let query = eventQuery(event, page: page)
            _ = try await context.analytics.enqueue(Data(query.utf8), destination: Self.eventDestination)
            await context.analytics.scheduleFlushSoon(after: .milliseconds(200))
        }
    }

    /// The callback form of `send(_:on:)`.
    @discardableResult
    public func send(
        _ event: CroboxEvent, on page: CroboxPage, completion: @escaping @Sendable (Result<Void, EngageError>) -> Void
    ) -> any Cancellable {
        context.callback(completion) { try await self.send(event, on: page) }
    }

    /// The encoded query of `event` on `page`, with the checksum when configured.
    func eventQuery(_ event: CroboxEvent, page: CroboxPage) -> String {
        let items = commonQueryItems(page: page, at: context.clock.now)
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
/// Events carry no idempotency key Crobox understands, so the deliverer reports exactly which events
/// went out before a failure (`PartialDeliveryError`) and those are never sent again. A 4xx other than
/// 408/429 is a permanent rejection (the event is dropped and reported); anything else is retried
/// later with back-off. No error event is generated for a failed delivery.
struct CroboxEventDeliverer: QueueDelivering {
    let client: APIClient
    let logger: Logger

    func deliver(_ batch: [QueuedEvent]) async throws {
        var delivered: Set<Int64> = []
        for event in batch {
            do {
                let query = String(decoding: event.payload, as: UTF8.self)
                // The query was encoded (and checksummed) when the event was tracked: send it verbatim.
                _ = try await client.data(.get, "/socket.gif", encodedQuery: query, options: RequestOptions(operationName: "crobox_event"))
                delivered.insert(event.id)
            } catch {
                let failure = EngageError.wrapping(error, providerID: .crobox)
                if delivered.isEmpty { throw failure }
                throw PartialDeliveryError(deliveredIDs: delivered, failure: failure)
            }
        }
    }
}
