import Foundation

/// Lenient readers for the scalar fields Warply sends in more than one JSON type.
///
/// The backend is inconsistent about scalars: `status` arrives as `"1"` or `1`, ids and counts as
/// numbers or numeric strings, flags as `true`, `"true"`, `1` or `"1"`. These readers accept every
/// such spelling of the *same value*, and nothing else: a string that is not a number, an object where
/// a scalar belongs, or a number too large for the field still fails with a `DecodingError` naming
/// the field, which `APIClient` turns into a `.decoding` error with the coding path.
extension KeyedDecodingContainer {
    /// An integer sent as a JSON number (integral) or a numeric string; `nil` when absent, `null` or `""`.
    func looseInt(forKey key: Key) throws -> Int? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        if let value = try? decode(Int.self, forKey: key) { return value }
        if let double = try? decode(Double.self, forKey: key) {
            guard double.rounded() == double, let value = Int(exactly: double) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "Expected an integer, found \(double).")
            }
            return value
        }
        if let text = try? decode(String.self, forKey: key) {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { return nil }
            if let value = Int(trimmed) { return value }
            if let double = Double(trimmed), double.rounded() == double, let value = Int(exactly: double) { return value }
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "Expected an integer, found the string '\(text.prefix(40))'.")
        }
        throw DecodingError.typeMismatch(
            Int.self, .init(codingPath: codingPath + [key], debugDescription: "Expected an integer or a numeric string.")
        )
    }

    /// A number sent as a JSON number or a numeric string; `nil` when absent, `null` or `""`.
    func looseDouble(forKey key: Key) throws -> Double? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        if let value = try? decode(Double.self, forKey: key) { return value }
        if let text = try? decode(String.self, forKey: key) {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { return nil }
            if let value = Double(trimmed), value.isFinite { return value }
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "Expected a number, found the string '\(text.prefix(40))'.")
        }
        throw DecodingError.typeMismatch(
            Double.self, .init(codingPath: codingPath + [key], debugDescription: "Expected a number or a numeric string.")
        )
    }

    /// A decimal amount sent as a JSON number or a numeric string, kept exact when it is a string.
    func looseDecimal(forKey key: Key) throws -> Decimal? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        if let text = try? decode(String.self, forKey: key) {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { return nil }
            guard let value = Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX")), !value.isNaN,
                trimmed.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" || $0 == "+" })
            else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: self, debugDescription: "Expected an amount, found the string '\(text.prefix(40))'.")
            }
            return value
        }
        if let value = try? decode(Decimal.self, forKey: key) { return value }
        throw DecodingError.typeMismatch(
            Decimal.self, .init(codingPath: codingPath + [key], debugDescription: "Expected an amount (number or numeric string).")
        )
    }

    /// Text sent as a JSON string or number (numbers are rendered without a fraction when integral);
    /// `nil` when absent or `null`.
    func looseString(forKey key: Key) throws -> String? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        if let text = try? decode(String.self, forKey: key) { return text }
        if let value = try? decode(Int64.self, forKey: key) { return String(value) }
        if let value = try? decode(Double.self, forKey: key) { return String(value) }
        if let value = try? decode(Bool.self, forKey: key) { return value ? "true" : "false" }
        throw DecodingError.typeMismatch(
            String.self, .init(codingPath: codingPath + [key], debugDescription: "Expected text, found an array or an object.")
        )
    }

    /// A flag sent as `true`/`false`, `"true"`/`"false"`, `1`/`0` or `"1"`/`"0"`; `nil` when absent,
    /// `null` or `""`.
    func looseBool(forKey key: Key) throws -> Bool? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        if let value = try? decode(Bool.self, forKey: key) { return value }
        if let value = try? decode(Int.self, forKey: key), value == 0 || value == 1 { return value == 1 }
        if let text = try? decode(String.self, forKey: key) {
            switch text.trimmingCharacters(in: .whitespaces).lowercased() {
            case "true", "1", "yes": return true
            case "false", "0", "no": return false
            case "": return nil
            default: break
            }
        }
        throw DecodingError.typeMismatch(
            Bool.self, .init(codingPath: codingPath + [key], debugDescription: "Expected a flag (true/false, 1/0 or their strings).")
        )
    }

    /// A URL string with Warply's escaped slashes (`\/`) cleaned; `nil` when absent, `null` or empty.
    /// Text that is not a URL is kept as text (the caller decides whether to build a `URL`).
    func cleanedURLString(forKey key: Key) throws -> String? {
        guard let text = try looseString(forKey: key) else { return nil }
        let cleaned = WarplyWire.cleanEscapedURL(text).trimmingCharacters(in: .whitespacesAndNewlines)
        return cleaned.isEmpty ? nil : cleaned
    }

    /// An array whose elements are decoded leniently: absent or `null` is empty; a single object is
    /// read as a one-element array.
    func looseArray<Element: Decodable>(_ type: Element.Type, forKey key: Key) throws -> [Element] {
        guard contains(key), try !decodeNil(forKey: key) else { return [] }
        if let array = try? decode([Element].self, forKey: key) { return array }
        if let single = try? decode(Element.self, forKey: key) { return [single] }
        // Decode again to surface the element's own error with its coding path.
        return try decode([Element].self, forKey: key)
    }

    /// A list of strings sent as a JSON array of strings/numbers or as one comma-separated string.
    func looseStringList(forKey key: Key) throws -> [String] {
        guard contains(key), try !decodeNil(forKey: key) else { return [] }
        if let list = try? decode([String].self, forKey: key) { return list }
        if let list = try? decode([Int64].self, forKey: key) { return list.map(String.init) }
        if let text = try? decode(String.self, forKey: key) {
            return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        throw DecodingError.typeMismatch(
            [String].self,
            .init(codingPath: codingPath + [key], debugDescription: "Expected a list of strings or a comma-separated string.")
        )
    }
}
