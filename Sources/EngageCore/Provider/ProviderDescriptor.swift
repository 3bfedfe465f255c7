/// A capability a provider offers, which the facade can fan out to.
public struct ProviderCapability: RawRepresentable, Hashable, Comparable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The capability name, e.g. `"offers"`.
    public let rawValue: String
    /// A capability from its name (third parties may define their own).
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A capability from a string literal.
    public init(stringLiteral value: String) { self.rawValue = value }
    /// The capability name.
    public var description: String { rawValue }
    /// Orders capabilities by name.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `OffersProviding`: campaigns, coupons, promotions, vouchers.
    public static let offers: Self = "offers"
    /// `EventTracking`: analytics events.
    public static let eventTracking: Self = "eventTracking"
    /// `MerchantDirectory`: merchants and shops near a point.
    public static let merchantDirectory: Self = "merchantDirectory"
    /// `ContentProviding`: articles and other content.
    public static let content: Self = "content"
    /// `IdentityAware`: follows the app's log in and log out.
    public static let identity: Self = "identity"
    /// `Resettable`: forgets the user and starts over anonymous.
    public static let reset: Self = "reset"
    /// `PushTokenReceiving`: takes the device's push token for the notifications its backend sends.
    public static let pushToken: Self = "pushToken"

    /// The capabilities the core defines protocols for, in a fixed order.
    public static let core: [ProviderCapability] = [
        .offers, .eventTracking, .merchantDirectory, .content, .identity, .reset, .pushToken,
    ]

    /// The protocol of each core capability: a provider type has the capability when it adopts it.
    static let protocols: [ProviderCapability: @Sendable (any EngageProvider.Type) -> Bool] = [
        .offers: { $0 is any OffersProviding.Type },
        .eventTracking: { $0 is any EventTracking.Type },
        .merchantDirectory: { $0 is any MerchantDirectory.Type },
        .content: { $0 is any ContentProviding.Type },
        .identity: { $0 is any IdentityAware.Type },
        .reset: { $0 is any Resettable.Type },
        .pushToken: { $0 is any PushTokenReceiving.Type },
    ]

    /// Whether `provider` adopts the protocol of this capability (`nil` for capabilities the core does
    /// not define: `Engage.fanOut` checks those against their own protocol).
    @_spi(EngageProvider) public func isAdopted(by provider: any EngageProvider) -> Bool? {
        Self.protocols[self].map { $0(type(of: provider)) }
    }
}

extension EngageProvider {
    /// The core capabilities of this provider type, derived from the protocols it adopts
    /// (`OffersProviding` gives ``ProviderCapability/offers``, and so on): nothing to declare twice.
    public static var capabilities: Set<ProviderCapability> {
        Set(ProviderCapability.core.filter { ProviderCapability.protocols[$0]?(Self.self) == true })
    }
}

/// What a provider is: its id, names and version. Its capabilities follow from the protocols it adopts
/// (`EngageProvider.capabilities`).
public struct ProviderDescriptor: Sendable, Hashable, Codable {
    /// The stable id, also the provider's storage namespace.
    public var id: ProviderID
    /// A name for people, e.g. "Warply loyalty".
    public var displayName: String
    /// The provider module's semantic version.
    public var version: String
    /// The suffix of its operation event names (`custom_success_<op>_<suffix>`); the id by default.
    public var eventSuffix: String

    /// A descriptor; `eventSuffix` defaults to the id. Provider-author API: apps read descriptors.
    @_spi(EngageProvider) public init(id: ProviderID, displayName: String, version: String, eventSuffix: String? = nil) {
        self.id = id
        self.displayName = displayName
        self.version = version
        self.eventSuffix = eventSuffix ?? id.rawValue
    }
}
