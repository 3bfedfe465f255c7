@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageWarply

/// The body of `POST /api/async/analytics/{appUUID}/`:
/// `{"events":[{"event_id": String, "event_name": String, "time_submitted": String, "params": {String: String}}]}`.
///
/// It is the provider's own `WarplyAnalyticsRequest` (with `WarplyAnalyticsBatch.Event` for one
/// event), so the emulator and the SDK share one definition of the shape and cannot drift apart.
package typealias WarplyAnalyticsBatch = WarplyAnalyticsRequest
