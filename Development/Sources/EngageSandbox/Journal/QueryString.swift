import EngageCore
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
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        // Foundation's decoding answers nil for an invalid escape or bytes that are not UTF-8.
        return String(text).removingPercentEncoding ?? String(text)
    }
}
