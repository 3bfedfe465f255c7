import Foundation

/// Any JSON value: configuration sections whose shape belongs to a provider, event properties and user
/// attributes. Literals build it: `["plan": "gold", "seats": 3, "tags": ["a", "b"]]`.
///
/// Integers that fit `Int64` decode as `.integer`, exactly (a `Double` would round 2^53 + 1); other
/// numbers decode as `.number`. Numbers compare by value: `.integer(7) == .number(7)`, while
/// `.integer(2^53 + 1)` equals no `Double`.
public enum JSONValue: Codable, Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer that fits `Int64`, kept exactly.
    case integer(Int64)
    /// Any other number (with a fraction or an exponent, or beyond `Int64`).
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])

    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value as the JSON it stands for.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case let .bool(value): try container.encode(value)
        case let .integer(value): try container.encode(value)
        case let .number(value): try container.encode(value)
        case let .string(value): try container.encode(value)
        case let .array(value): try container.encode(value)
        case let .object(value): try container.encode(value)
        }
    }

    /// Equal when both are the same JSON value; an `.integer` and a `.number` are equal when the
    /// `Double` represents the integer exactly.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(left), .bool(right)): return left == right
        case let (.integer(left), .integer(right)): return left == right
        case let (.number(left), .number(right)): return left == right
        case let (.integer(left), .number(right)), let (.number(right), .integer(left)):
            return Double(exactly: left) == right
        case let (.string(left), .string(right)): return left == right
        case let (.array(left), .array(right)): return left == right
        case let (.object(left), .object(right)): return left == right
        default: return false
        }
    }

    /// Hashes consistently with `==`: an integer that a `Double` represents exactly hashes as that
    /// `Double`.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0)
        case let .bool(value):
            hasher.combine(1)
            hasher.combine(value)
        case let .integer(value):
            if let exact = Double(exactly: value) {
                hasher.combine(2)
                hasher.combine(exact)
            } else {
                hasher.combine(3)
                hasher.combine(value)
            }
        case let .number(value):
            hasher.combine(2)
            hasher.combine(value)
        case let .string(value):
            hasher.combine(4)
            hasher.combine(value)
        case let .array(value):
            hasher.combine(5)
            hasher.combine(value)
        case let .object(value):
            hasher.combine(6)
            hasher.combine(value)
        }
    }

    /// Encodes any `Encodable` value as a `JSONValue`.
    public init(encoding value: some Encodable) throws {
        let data = try JSONEncoder().encode(value)
        self = try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// Decodes this value as `type`.
    public func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        let data = try JSONEncoder().encode(self)
        return try JSONDecoder().decode(type, from: data)
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `nil` is `.null`.
    public init(nilLiteral: ()) { self = .null }
    /// A boolean literal is `.bool`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer literal is `.integer`.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// A floating-point literal is `.number`.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A string literal is `.string`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array literal is `.array`.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// A dictionary literal is `.object` (a repeated key keeps its last value).
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSONValue {
    /// The member named `key` when the value is an object.
    public subscript(key: String) -> JSONValue? {
        if case let .object(members) = self { return members[key] }
        return nil
    }

    /// The string when the value is a string.
    public var stringValue: String? {
        if case let .string(value) = self { return value }
        return nil
    }

    /// The integer when the value is `.integer`, or a `.number` with an exact `Int64` value.
    public var int64Value: Int64? {
        switch self {
        case let .integer(value): return value
        case let .number(value): return Int64(exactly: value)
        default: return nil
        }
    }

    /// The value as one line of text, for wires that carry text only (query parameters): a string as it
    /// is, a number in its shortest form, `true`/`false`, an empty string for `null`, and arrays and
    /// objects as compact JSON with sorted keys.
    package var text: String {
        switch self {
        case .null: return ""
        case let .bool(value): return value ? "true" : "false"
        case let .integer(value): return String(value)
        case let .number(value):
            if let exact = Int64(exactly: value) { return String(exact) }
            return String(value)
        case let .string(value): return value
        case .array, .object:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return (try? encoder.encode(self)).flatMap { String(data: $0, encoding: .utf8) } ?? ""
        }
    }

    /// Whether every number in the value is finite: JSON has no NaN or infinity, so a value holding one
    /// cannot be sent or stored.
    package var isFinite: Bool {
        switch self {
        case let .number(value): return value.isFinite
        case let .array(values): return values.allSatisfy(\.isFinite)
        case let .object(members): return members.values.allSatisfy(\.isFinite)
        case .null, .bool, .integer, .string: return true
        }
    }

    /// The number as a `Double` when the value is `.integer` or `.number` (large integers may round).
    public var doubleValue: Double? {
        switch self {
        case let .integer(value): return Double(value)
        case let .number(value): return value
        default: return nil
        }
    }
}

extension JSONValue {
    /// The most unknown keys ``unknownKeyPaths(comparedWith:under:)`` lists.
    package static let maximumUnknownKeyPaths = 50

    /// The key paths of this value (a configuration as written) that `read` (the same configuration
    /// decoded into its type and encoded again) does not have: settings nothing reads, such as a
    /// misspelt `containerId`. Paths are dotted, arrays indexed (`providers.crobox.containerId`,
    /// `links.routes[0].templat`), keys cut to 64 characters, at most ``maximumUnknownKeyPaths`` of
    /// them. A key written as `null` is not listed: an optional setting left out encodes as nothing.
    package func unknownKeyPaths(comparedWith read: JSONValue, under prefix: String = "") -> [String] {
        var paths: [String] = []
        collectUnknownKeyPaths(comparedWith: read, under: prefix, into: &paths)
        return paths
    }

    private func collectUnknownKeyPaths(comparedWith read: JSONValue, under prefix: String, into paths: inout [String]) {
        switch (self, read) {
        case let (.object(written), .object(known)):
            for (key, value) in written.sorted(by: { $0.key < $1.key }) {
                guard paths.count < Self.maximumUnknownKeyPaths else { return }
                if case .null = value { continue }
                let path = prefix.isEmpty ? String(key.prefix(64)) : "\(prefix).\(key.prefix(64))"
                if let knownValue = known[key] {
                    value.collectUnknownKeyPaths(comparedWith: knownValue, under: path, into: &paths)
                } else {
                    paths.append(path)
                }
            }
        case let (.array(written), .array(known)):
            for (index, (value, knownValue)) in zip(written, known).enumerated() {
                guard paths.count < Self.maximumUnknownKeyPaths else { return }
                value.collectUnknownKeyPaths(comparedWith: knownValue, under: "\(prefix)[\(index)]", into: &paths)
            }
        default:
            return
        }
    }
}
