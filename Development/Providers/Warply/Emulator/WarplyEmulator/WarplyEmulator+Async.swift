@_spi(EngageProvider) import EngageSandbox
import Hummingbird
@_spi(EngageProvider) import EngageCore

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
                // The whole batch is refused for one event the backend will not take.
                if let refused = batch.events.first(where: { Self.analyticsProblem(in: $0) != nil }),
                    let problem = Self.analyticsProblem(in: refused)
                {
                    throw WarplyEmulatorRejection.malformed("Event \(refused.eventID.prefix(64)): \(problem)")
                }
                self.state.withLock { state in
                    for event in batch.events where state.analyticsEventIDs.insert(event.eventID).inserted {
                        state.analyticsEvents.append(event)
                    }
                }
                return try Self.statusAnswer(1)
            }
        }
        group.post("api/async/info/:appUUID") { request, context in
            try await self.respond {
                let data = try await self.readBody(request, context: context)
                try self.verifySigned(request, environment: environment)
                let body = try self.decode(WarplyEmulatorContextRequest.self, from: data, expected: #"{"device_info":{…}}"#)
                guard body.root == "device_info" else {
                    throw WarplyEmulatorRejection.malformed(#"Malformed JSON body: expected {"device_info":{…}}."#)
                }
                if let problem = Self.deviceInfoProblem(body) { throw WarplyEmulatorRejection.malformed(problem) }
                self.state.withLock { $0.deviceInfo.append(body) }
                return try Self.statusAnswer(1)
            }
        }
    }

    /// The fields every device information body carries (inferred: the knowledge file names
    /// `update_device_info` and `update_token` but not their fields).
    static let requiredDeviceFields = ["language", "os_version", "platform", "unique_device_id", "vendor"]

    /// Why the backend refuses a device information body, if it does: an action other than
    /// `update_token` and `update_device_info`, a missing required field, a field that is not a string of
    /// at most 4 096 characters, or `update_token` without `device_token`.
    static func deviceInfoProblem(_ body: WarplyEmulatorContextRequest) -> String? {
        let actions: Set = ["update_token", "update_device_info"]
        guard actions.contains(body.action) else { return "Unknown device_info action '\(body.action.prefix(64))'." }
        if let missing = Self.requiredDeviceFields.first(where: { body.fields[$0] == nil }) {
            return "device_info needs \(missing)."
        }
        for (key, value) in body.fields {
            guard case let .string(text) = value, text.count <= 4_096 else { return "device_info.\(key.prefix(64)) must be a string." }
        }
        if body.action == "update_token", body.fields["device_token"] == nil { return "update_token needs device_token." }
        return nil
    }

    /// Why the backend refuses an analytics event, if it does: an empty or overlong `event_id` or
    /// `event_name`, or a `time_submitted` that is not one of Warply's timestamp formats.
    static func analyticsProblem(in event: WarplyAnalyticsBatch.Event) -> String? {
        if event.eventID.isEmpty || event.eventID.count > 128 { return "event_id must be 1 to 128 characters." }
        if event.eventName.isEmpty || event.eventName.count > 128 { return "event_name must be 1 to 128 characters." }
        if ServedTimestamp(event.timeSubmitted).date == nil { return "time_submitted is not a timestamp." }
        return nil
    }
}
