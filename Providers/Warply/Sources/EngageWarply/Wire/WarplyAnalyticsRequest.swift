@_spi(EngageProvider) import EngageCore
import Foundation

/// `POST /api/async/analytics/{appUUID}/` body: `{"events":[{"event_id","event_name","time_submitted","params"}]}`.
///
/// `event_id` is the durable queue's idempotency key, so a batch sent again after a lost answer is
/// recognised by the server and never counted twice.
package struct WarplyAnalyticsRequest: Codable, Sendable, Hashable {
    /// One analytics event.
    package struct Event: Codable, Sendable, Hashable {
        /// A unique id (the idempotency key).
        package var eventID: String
        /// The event name, e.g. `custom_success_redeem_coupon_loyalty` or an app screen name.
        package var eventName: String
        /// When the event happened, as `yyyy-MM-dd HH:mm:ss` in the server's zone.
        package var timeSubmitted: String
        /// Flat string parameters (never secrets).
        package var params: [String: JSONValue]

        /// An event.
        package init(eventID: String, eventName: String, timeSubmitted: String, params: [String: JSONValue] = [:]) {
            self.eventID = eventID
            self.eventName = eventName
            self.timeSubmitted = timeSubmitted
            self.params = params
        }

        enum CodingKeys: String, CodingKey {
            case eventID = "event_id", eventName = "event_name", timeSubmitted = "time_submitted", params
        }
    }

    /// The events, oldest first.
    package var events: [Event]

    /// A batch.
    package init(events: [Event]) {
        self.events = events
    }
}
