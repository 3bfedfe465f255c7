/// An arbitrary JSON value, for emulator payloads whose shape the emulator does not care about.
public enum SandboxJSON: Sendable, Hashable, Codable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number (JSON does not distinguish integers; they round-trip exactly up to 2^53).
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([SandboxJSON])
    /// An object. Key order is not preserved; encoders that sort keys give a stable output.
    case object([String: SandboxJSON])

    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([SandboxJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: SandboxJSON].self))
        }
    }

    /// Encodes the value as the JSON it represents.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The member named `key` when the value is an object.
    public subscript(key: String) -> SandboxJSON? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The string when the value is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}
