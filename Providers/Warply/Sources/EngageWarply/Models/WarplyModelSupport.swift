import Foundation

/// Readers shared by the Warply models, on top of the lenient scalar readers in
/// `WarplyLooseDecoding.swift`: required identifiers, optional timestamps and nested objects that the
/// backend sometimes sends as `[]` or `{}` when empty.
extension KeyedDecodingContainer {
    /// Non-empty text for a required field (ids). Throws `keyNotFound` when the key is absent,
    /// `valueNotFound` when it is `null`, and `dataCorrupted` when the text is empty or blank.
    func requiredString(forKey key: Key) throws -> String {
        guard contains(key) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "The required field '\(key.stringValue)' is missing."))
        }
        guard let text = try looseString(forKey: key) else {
            throw DecodingError.valueNotFound(
                String.self, .init(codingPath: codingPath + [key], debugDescription: "The required field '\(key.stringValue)' is null.")
            )
        }
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "The required field '\(key.stringValue)' is empty.")
        }
        return text
    }

    /// An integer for a required field. Throws `keyNotFound` when absent and `valueNotFound` when `null`
    /// or `""`.
    func requiredInt(forKey key: Key) throws -> Int {
        guard contains(key) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "The required field '\(key.stringValue)' is missing."))
        }
        guard let value = try looseInt(forKey: key) else {
            throw DecodingError.valueNotFound(
                Int.self, .init(codingPath: codingPath + [key], debugDescription: "The required field '\(key.stringValue)' has no value.")
            )
        }
        return value
    }

    /// A flag for a required field. Throws `keyNotFound` when absent and `valueNotFound` when `null` or `""`.
    func requiredBool(forKey key: Key) throws -> Bool {
        guard contains(key) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "The required field '\(key.stringValue)' is missing."))
        }
        guard let value = try looseBool(forKey: key) else {
            throw DecodingError.valueNotFound(
                Bool.self, .init(codingPath: codingPath + [key], debugDescription: "The required field '\(key.stringValue)' has no value.")
            )
        }
        return value
    }

    /// A date as text (kept verbatim) or Unix seconds; `nil` when absent, `null` or blank. An array or
    /// an object throws a `typeMismatch` naming the field.
    func looseTimestamp(forKey key: Key) throws -> WarplyTimestamp? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        if let text = try? decode(String.self, forKey: key) {
            return text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : WarplyTimestamp(text)
        }
        return try decode(WarplyTimestamp.self, forKey: key)
    }

    /// A nested object; `nil` when absent, `null`, `""`, `[]` or `{}` (the backend's spellings of
    /// "nothing"). Any other value must decode as `T`, or its own error is thrown.
    func looseObject<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        if let text = try? decode(String.self, forKey: key), text.trimmingCharacters(in: .whitespaces).isEmpty { return nil }
        if let list = try? nestedUnkeyedContainer(forKey: key), list.count == 0 { return nil }
        if let object = try? nestedContainer(keyedBy: AnyKey.self, forKey: key), object.allKeys.isEmpty { return nil }
        return try decode(T.self, forKey: key)
    }
}

/// Helpers for the models' computed properties and their redacted descriptions.
enum WarplyModelSupport {
    /// A `URL` for cleaned text; `nil` when there is no text or it is not a URL.
    static func url(_ text: String?) -> URL? {
        guard let text, !text.isEmpty else { return nil }
        return URL(string: text)
    }

    /// `text` with every character but the last two replaced by `*`; texts of four characters or fewer
    /// are masked entirely, so short codes never show.
    static func maskKeepingLastTwo(_ text: String) -> String {
        guard text.count > 4 else { return String(repeating: "*", count: max(text.count, 1)) }
        return String(repeating: "*", count: text.count - 2) + text.suffix(2)
    }

    /// `"<redacted>"` when a value is present, `"nil"` otherwise.
    static func redacted(_ text: String?) -> String {
        text == nil ? "nil" : "<redacted>"
    }

    /// The value's text, or `"nil"`.
    static func show(_ value: (some CustomStringConvertible)?) -> String {
        value.map(\.description) ?? "nil"
    }
}
