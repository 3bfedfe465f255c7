/// The stable identifier of a provider, such as `"crobox"` or `"warply"`.
///
/// Identifiers are lowercase ASCII letters, digits, `-` and `_`, start with a letter and are at most
/// 64 characters long, so they are safe as storage namespaces, event name parts and URL path segments.
public struct ProviderID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    public static func < (lhs: ProviderID, rhs: ProviderID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether the identifier follows the rules above.
    public var isValid: Bool {
        let scalars = rawValue.unicodeScalars
        guard let first = scalars.first, scalars.count <= 64, ("a"..."z").contains(first) else { return false }
        return scalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
    }
}
