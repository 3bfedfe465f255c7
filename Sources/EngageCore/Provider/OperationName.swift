/// The name of a provider operation, in snake case (`redeem_coupon`): declared once, as a constant,
/// and carried by the call.
///
/// ``ProviderContext/perform(_:_:)`` names its `OperationEvent` with it and makes it the current
/// operation of the task, so every request the operation sends through an `APIClient` carries the
/// same name in its ``RequestOptions/operationName`` (logs, retries and error hooks read it there)
/// unless the request names itself (a token refresh sent during the operation, say).
///
/// ```swift
/// extension OperationName {
///     static let redeemCoupon: OperationName = "redeem_coupon"
/// }
/// ```
@_spi(EngageProvider) public struct OperationName: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible
{
    /// The name in snake case.
    public let rawValue: String

    /// The name `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The name written as a literal.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The raw name.
    public var description: String { rawValue }

    /// The operation the current task runs inside, set by `ProviderContext.perform`.
    @TaskLocal package static var current: OperationName?
}
