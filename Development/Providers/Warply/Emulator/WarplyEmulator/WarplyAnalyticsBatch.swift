@_spi(EngageProvider) import EngageCore

/// The body of `POST /api/async/analytics/{appUUID}/`:
/// `{"events":[{"event_id": String, "event_name": String, "time_submitted": String, "params": {String: JSON}}]}`
/// (inferred: the knowledge file names the route and the `custom_{success|error}_{operation}_loyalty`
/// event names, not the body). The emulator's own type, not the client's: a client that sends another
/// shape is refused.
package struct WarplyAnalyticsBatch: Codable, Sendable, Hashable {
    /// One analytics event.
    package struct Event: Codable, Sendable, Hashable {
        /// The event's id, which makes a resent event count once.
        package var eventID: String
        /// The event's name.
        package var eventName: String
        /// When the app recorded it, in one of the backend's date formats.
        package var timeSubmitted: String
        /// The event's parameters, as sent.
        package var params: [String: JSONValue]

        enum CodingKeys: String, CodingKey {
            case eventID = "event_id", eventName = "event_name", timeSubmitted = "time_submitted", params
        }

        /// An event with `params`.
        package init(eventID: String, eventName: String, timeSubmitted: String, params: [String: JSONValue] = [:]) {
            self.eventID = eventID
            self.eventName = eventName
            self.timeSubmitted = timeSubmitted
            self.params = params
        }
    }

    /// The events of the batch.
    package var events: [Event]

    /// A batch of `events`.
    package init(events: [Event]) { self.events = events }
}
