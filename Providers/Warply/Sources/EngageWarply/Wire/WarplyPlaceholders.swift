import Foundation

/// The seed's placeholder substitution: `{name}` replaced by its value.
package enum WarplyPlaceholders {
    /// `text` with every `{name}` in `values` replaced; unknown placeholders are left as they are.
    ///
    /// One left-to-right scan: a substituted value is never scanned again, so a value that itself
    /// contains `{name}` is inserted as it is (the result does not depend on the order of `values`).
    package static func fill(_ text: String, values: [String: String]) -> String {
        guard !values.isEmpty, text.contains("{") else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let afterOpen = rest.index(after: open)
            // The name runs to the next `}`; another `{` first means this one is literal text.
            guard let close = rest[afterOpen...].firstIndex(where: { $0 == "}" || $0 == "{" }), rest[close] == "}" else {
                result.append("{")
                rest = rest[afterOpen...]
                continue
            }
            if let value = values[String(rest[afterOpen..<close])] {
                result += value
            } else {
                result += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        result += rest
        return result
    }
}
