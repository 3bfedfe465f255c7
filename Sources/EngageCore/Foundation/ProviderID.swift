/// The stable identifier of a provider, such as `"crobox"` or `"warply"`.
///
/// Identifiers are lowercase ASCII letters, digits, `-` and `_`, start with a letter and are at most
/// 64 characters long, so they are safe as storage namespaces, event name parts and URL path segments.
public struct ProviderID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The id text, e.g. `"crobox"`.
    public let rawValue: String

    /// Wraps `rawValue` unchanged; check `isValid` before using it.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// An id from a string literal.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// Decodes an id from a JSON string.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the id as a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The id text.
    public var description: String { rawValue }

    /// Orders ids by their text.
    public static func < (lhs: ProviderID, rhs: ProviderID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether the identifier follows the rules above.
    public var isValid: Bool {
        let scalars = rawValue.unicodeScalars
        guard let first = scalars.first, scalars.count <= 64, ("a"..."z").contains(first) else { return false }
        return scalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
    }
}
