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

    /// The protocol a provider must adopt to declare this capability, for conformance checks.
    static let protocols: [ProviderCapability: @Sendable (any EngageProvider) -> Bool] = [
        .offers: { $0 is any OffersProviding },
        .eventTracking: { $0 is any EventTracking },
        .merchantDirectory: { $0 is any MerchantDirectory },
        .content: { $0 is any ContentProviding },
        .identity: { $0 is any IdentityAware },
    ]

    /// Whether `provider` adopts the protocol of this capability (`nil` for capabilities the core does
    /// not define).
    public func isAdopted(by provider: any EngageProvider) -> Bool? {
        Self.protocols[self].map { $0(provider) }
    }
}

/// What a provider is: its id, names, version and capabilities.
public struct ProviderDescriptor: Sendable, Hashable, Codable {
    /// The stable id, also the provider's storage namespace.
    public var id: ProviderID
    /// A name for people, e.g. "Warply loyalty".
    public var displayName: String
    /// The provider module's semantic version.
    public var version: String
    /// What the provider can do; it must adopt the matching protocols.
    public var capabilities: Set<ProviderCapability>
    /// The suffix of its operation event names (`custom_success_<op>_<suffix>`); the id by default.
    public var eventSuffix: String

    /// A descriptor; `eventSuffix` defaults to the id.
    public init(id: ProviderID, displayName: String, version: String, capabilities: Set<ProviderCapability>, eventSuffix: String? = nil) {
        self.id = id
        self.displayName = displayName
        self.version = version
        self.capabilities = capabilities
        self.eventSuffix = eventSuffix ?? id.rawValue
    }
}
