@_spi(EngageProvider) import EngageCore
import Foundation

/// A context request body: `{"<root>": {"action": "<action>", ...fields}}`, e.g.
/// `{"coupon":{"action":"user_coupons","details":["merchant","redemption"],"language":"el"}}`.
///
/// The provider encodes it; the emulator decodes the same type, so the two agree on the envelope.
package struct WarplyContextRequest: Codable, Sendable, Hashable {
    /// The root key (see `WarplyWire.Root`).
    package var root: String
    /// The action (see `WarplyWire.Action`); empty when the body has none, or when its `action` is not
    /// a non-empty string (that value is then kept in ``fields``).
    package var action: String
    /// The other fields of the root object. A decoded `action` that is not a non-empty string (a
    /// number, an object, `""`…) stays here under `"action"`, so the body re-encodes unchanged.
    package var fields: [String: JSONValue]

    /// A body with `root`, `action` and `fields`.
    package init(root: String, action: String, fields: [String: JSONValue] = [:]) {
        self.root = root
        self.action = action
        self.fields = fields
    }

    /// Decodes `{"<root>": {...}}`: exactly one root key holding an object. A non-empty string
    /// `action` becomes ``action``; any other `action` value is kept in ``fields``.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "Expected one root key such as {\"campaigns\":{...}}, found \(container.allKeys.count)."
                ))
        }
        root = key.stringValue
        var object = try container.decode([String: JSONValue].self, forKey: key)
        if case let .string(action)? = object["action"], !action.isEmpty {
            object.removeValue(forKey: "action")
            self.action = action
        } else {
            action = ""
        }
        fields = object
    }

    /// Encodes `{"<root>": {"action": ..., ...fields}}`; a non-empty ``action`` wins over an `action`
    /// entry in ``fields``.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        var object = fields
        if !action.isEmpty { object["action"] = .string(action) }
        try container.encode(object, forKey: AnyKey(root))
    }

    /// The text field `name`, also when sent as a number.
    package func string(_ name: String) -> String? {
        switch fields[name] {
        case let .string(text)?: return text
        case let .integer(value)?: return String(value)
        case let .number(value)?: return String(value)
        default: return nil
        }
    }

    /// The integer field `name`, also when sent as a numeric string.
    package func integer(_ name: String) -> Int? {
        switch fields[name] {
        case let .integer(value)?: return Int(exactly: value)
        case let .number(value)?: return Int(exactly: value)
        case let .string(text)?: return Int(text)
        default: return nil
        }
    }

    /// The list of strings `name` (an array of strings, or absent = empty).
    package func strings(_ name: String) -> [String] {
        guard case let .array(values)? = fields[name] else { return [] }
        return values.compactMap { if case let .string(text) = $0 { text } else { nil } }
    }
}
