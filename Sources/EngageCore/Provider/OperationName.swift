/// The name of a provider operation, in snake case (`redeem_coupon`): what its `OperationEvent`,
/// its log lines and its requests carry.
///
/// A name comes from the operation that carries it (``ProviderOperation/name``), never from a string
/// literal at the call: a provider declares its operations once, as one type.
@_spi(EngageProvider) public struct OperationName: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The name in snake case.
    public let rawValue: String

    /// The name `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The raw name.
    public var description: String { rawValue }
}

/// An operation a provider offers, declared once with everything a request needs to know about it:
/// its name and whether its requests may be sent again.
///
/// Declare a provider's operations as one enum; a `String` raw value is the name:
///
/// ```swift
/// enum PerksOperation: String, ProviderOperation {
///     case offers
///     case claim = "claim_offer"
///
///     /// Reading offers twice does no harm; claiming twice could claim two offers.
///     var isRepeatable: Bool { self == .offers }
/// }
/// ```
///
/// ``ProviderContext/perform(_:_:)`` names its `OperationEvent` after the operation and makes it the
/// task's current operation, so every request the operation sends through an `APIClient` carries it
/// in ``RequestOptions/operation`` (logs, retries and the provider's answer rules read it there)
/// unless the request names its own (a token refresh sent during the operation, say). A request is
/// repeatable when its options say so or its operation does.
@_spi(EngageProvider) public protocol ProviderOperation: Sendable {
    /// The name its events, log lines and requests carry, in snake case.
    var name: OperationName { get }

    /// Whether each of its requests may be sent again after it may have reached the server: reads,
    /// deletes, and writes the server deduplicates. `false` unless the operation says so; methods
    /// HTTP defines as idempotent are resent whatever this says.
    var isRepeatable: Bool { get }
}

extension ProviderOperation {
    /// Not repeatable: a resend after a lost answer could apply the operation twice.
    public var isRepeatable: Bool { false }
}

extension ProviderOperation where Self: RawRepresentable, Self.RawValue == String {
    /// The raw value, as the operation's name.
    public var name: OperationName { OperationName(rawValue: rawValue) }
}

/// The operation the current task runs inside, set by `ProviderContext.perform`.
package enum CurrentOperation {
    @TaskLocal package static var value: (any ProviderOperation)?
}
