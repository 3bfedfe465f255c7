import Foundation

/// Parses query strings by RFC 3986 rules.
public enum QueryString {
    /// Splits `query` (without the leading `?`) on `&`, each item on its first `=`, and
    /// percent-decodes names and values. `+` stays a literal plus (it is not form encoding);
    /// empty items are skipped; an item whose percent-encoding is invalid is kept verbatim.
    public static func decode(_ query: String) -> [QueryItem] {
        query.split(separator: "&", omittingEmptySubsequences: true).map { item in
            if let equals = item.firstIndex(of: "=") {
                return QueryItem(
                    name: percentDecode(item[..<equals]),
                    value: percentDecode(item[item.index(after: equals)...])
                )
            }
            return QueryItem(name: percentDecode(item), value: "")
        }
    }

    /// Percent-decodes `text`; returns it unchanged when an escape is invalid or the bytes are not
    /// UTF-8.
    public static func percentDecode(_ text: some StringProtocol) -> String {
        let utf8 = Array(text.utf8)
        guard utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < utf8.count, let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2])
                else { return String(text) }
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(byte)
                index += 1
            }
        }
        // Foundation's decoding: the standard library's validating initialiser needs iOS 18 / macOS 15.
        return String(bytes: bytes, encoding: .utf8) ?? String(text)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
