import Foundation

/// Turns what a user typed into a safe FTS5 prefix query: every word becomes a quoted phrase (quotes
/// doubled, so no input is read as FTS syntax) with a trailing `*`, and all words must match.
///
/// `"caf"` → `"caf"*`; `McDonald's NY` → `"McDonald's"* "NY"*`; `a "b" OR c` → `"a"* """b"""* "OR"* "c"*`.
enum ExploreTextSearch {
    /// The MATCH expression, or `nil` when the text has no word to search for.
    static func matchExpression(_ text: String?) -> String? {
        guard let text else { return nil }
        let words = text.split(whereSeparator: { $0.isWhitespace || $0 == "\0" })
            .filter { word in word.unicodeScalars.contains { $0.properties.isAlphabetic || $0.properties.numericType != nil } }
            .prefix(16)
        guard !words.isEmpty else { return nil }
        return words.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"*" }.joined(separator: " ")
    }

    /// Whether the text asks for a search at all (it has non-space characters).
    static func isSearch(_ text: String?) -> Bool {
        guard let text else { return false }
        return text.contains { !$0.isWhitespace }
    }
}
