import EngageSandbox
import EngageWarply
import Hummingbird
import EngageCore

extension WarplyEmulator {
    func addAsyncRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
        group.post("api/async/analytics/:appUUID") { request, context in
            try await self.respond {
                let data = try await self.readBody(request, context: context)
                try self.verifySigned(request, environment: environment)
                let batch = try self.decode(
                    WarplyAnalyticsBatch.self, from: data,
                    expected: #"{"events":[{"event_id","event_name","time_submitted","params"}]}"#
                )
                self.state.withLock { state in
                    for event in batch.events where state.analyticsEventIDs.insert(event.eventID).inserted {
                        state.analyticsEvents.append(event)
                    }
                }
                return try Self.statusAnswer(WarplyWire.Status.success)
            }
        }
        group.post("api/async/info/:appUUID") { request, context in
            try await self.respond {
                let data = try await self.readBody(request, context: context)
                try self.verifySigned(request, environment: environment)
                let body = try self.decode(WarplyContextRequest.self, from: data, expected: #"{"device_info":{…}}"#)
                guard body.root == WarplyWire.Root.deviceInfo else {
                    throw WarplyEmulatorRejection.malformed(#"Malformed JSON body: expected {"device_info":{…}}."#)
                }
                self.state.withLock { $0.deviceInfo.append(body) }
                return try Self.statusAnswer(WarplyWire.Status.success)
            }
        }
    }
}
