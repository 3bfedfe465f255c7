import Foundation

/// A decimal written either as a JSON number or as a string (`25`, `"25"`, `"25.50"`); any other
/// type, or a string that is not a plain decimal, fails with the field's coding path.
package struct LenientDecimal: Decodable, Sendable, Hashable {
    package let value: Decimal

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            guard let parsed = GiftCardMoney.parse(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text.prefix(40))' is not a decimal number")
            }
            value = parsed
        } else {
            // Through the number's text, so that 25.5 stays exactly 25.5 rather than a binary double.
            let number = try container.decode(Double.self)
            guard number.isFinite, let parsed = Decimal(string: "\(number)", locale: Locale(identifier: "en_US_POSIX")) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a finite number")
            }
            value = parsed
        }
    }
}

extension KeyedDecodingContainer {
    /// The first key of `keys` that is present and not null, decoded as a lenient decimal.
    package func lenientDecimal(_ keys: Key...) throws -> Decimal? {
        for key in keys where try contains(key) && !decodeNil(forKey: key) {
            return try decode(LenientDecimal.self, forKey: key).value
        }
        return nil
    }

    /// The first key of `keys` that is present and not null, as an integer written as a number or a
    /// string (a fractional value is refused).
    package func lenientInteger(_ keys: Key...) throws -> Int? {
        for key in keys where try contains(key) && !decodeNil(forKey: key) {
            let value = try decode(LenientDecimal.self, forKey: key).value
            guard let integer = Int(exactly: NSDecimalNumber(decimal: value).doubleValue), Decimal(integer) == value else {
                throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "expected a whole number")
            }
            return integer
        }
        return nil
    }

    /// An id written as a string or as a whole number (kept as its digits); `nil` when absent or null.
    package func lenientIdentifier(_ key: Key) throws -> String? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        if let text = try? decode(String.self, forKey: key) { return text }
        return String(try decode(Int.self, forKey: key))
    }

    /// The first key of `keys` that is present and not null, as a string.
    package func firstString(_ keys: Key...) throws -> String? {
        for key in keys where try contains(key) && !decodeNil(forKey: key) {
            return try decode(String.self, forKey: key)
        }
        return nil
    }

    /// A list of decimals written as a JSON array of numbers or strings, or as one comma-separated
    /// string (`"25,50,100"`), under the first present key of `keys`.
    package func lenientDecimalList(_ keys: Key...) throws -> [Decimal]? {
        for key in keys where try contains(key) && !decodeNil(forKey: key) {
            if let text = try? decode(String.self, forKey: key) {
                return try GiftCardLenientList.parse(text, key: key, container: self)
            }
            return try decode([LenientDecimal].self, forKey: key).map(\.value)
        }
        return nil
    }
}

/// Reads `"25"` or `"25,50,100"` (spaces allowed) as decimals.
package enum GiftCardLenientList {
    package static func parse(_ text: String) -> [Decimal]? {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let values = parts.compactMap(GiftCardMoney.parse)
        return values.count == parts.count ? values : nil
    }

    package static func parse<Key: CodingKey>(_ text: String, key: Key, container: KeyedDecodingContainer<Key>) throws -> [Decimal] {
        guard let values = parse(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "'\(text.prefix(60))' is not a list of amounts")
        }
        return values
    }
}
