/// An event published on the `EventBus`.
///
/// Every event has a `name`, so apps that subscribe by string (as the older string-keyed event buses
/// did) receive typed events too, and string `attributes` that carry no secrets.
public protocol EngageEvent: Sendable {
    /// The event's name, e.g. `custom_success_redeem_coupon_loyalty`.
    var name: String { get }
    /// The provider that published the event, if any.
    var providerID: ProviderID? { get }
    /// Flat string attributes for name-based subscribers and analytics. Never contains secrets.
    var attributes: [String: String] { get }
}

extension EngageEvent {
    /// No provider by default.
    public var providerID: ProviderID? { nil }
    /// No attributes by default.
    public var attributes: [String: String] { [:] }
}

/// An event identified only by its name, for apps and providers that use string events.
public struct NamedEvent: EngageEvent, Equatable {
    /// The event name subscribers match, e.g. `"analytics_events_dropped"`.
    public var name: String
    /// The provider that published it, if any.
    public var providerID: ProviderID?
    /// Flat string attributes (no secrets).
    public var attributes: [String: String]

    /// An event named `name`, optionally attributed to `providerID`, with `attributes`.
    public init(_ name: String, providerID: ProviderID? = nil, attributes: [String: String] = [:]) {
        self.name = name
        self.providerID = providerID
        self.attributes = attributes
    }
}
