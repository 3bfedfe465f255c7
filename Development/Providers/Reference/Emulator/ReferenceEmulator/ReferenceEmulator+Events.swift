@_spi(EngageProvider) import EngageSandbox
import Hummingbird
@_spi(EngageProvider) import EngageCore

extension ReferenceEmulator {
    func addEventRoutes(to group: RouterGroup<SandboxRequestContext>) {
        group.post("events") { request, context in
            guard let batch = try await self.decodeBody(EventBatch.self, from: request, context: context) else {
                return self.invalidRequest(#"Expected {"events":[{"id","name","payload"}]}."#)
            }
            let receipt = self.store.withLock { store in
                var receipt = EventReceipt(accepted: 0, duplicates: 0)
                for event in batch.events {
                    if store.eventIDs.insert(event.id).inserted {
                        store.events.append(event)
                        receipt.accepted += 1
                    } else {
                        store.duplicateEventCount += 1
                        receipt.duplicates += 1
                    }
                }
                return receipt
            }
            return try SandboxResponse.json(receipt)
        }
        group.get("events") { _, _ in
            try SandboxResponse.json(EventList(events: self.receivedEvents))
        }
    }
}
