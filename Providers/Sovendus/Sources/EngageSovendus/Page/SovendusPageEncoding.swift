import Foundation

/// The two encoders the banner page is written with, one per context. Nothing reaches the page
/// except through them (or as constant text).
enum SovendusPageEncoding {
    /// `value` as a JSON value that is safe inside an HTML `<script>` element.
    ///
    /// JSON-encoding alone is not enough there: the HTML parser ends the script at the first `</script`
    /// whatever JavaScript thinks of it, `<!--` switches it into an escaped state, and U+2028/U+2029 end
    /// a line in older JavaScript engines. So after JSON-encoding, every `<`, `>`, `&`, U+2028 and
    /// U+2029 is written as its `\u` escape. Those characters can only occur inside JSON strings,
    /// where the escape means the same character, so `JSON.parse` and JavaScript both read back
    /// exactly the original value.
    static func scriptJSON(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        // Sorted keys: the same input gives the same page, and the same script hash.
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(value), as: UTF8.self)
        var escaped = String.UnicodeScalarView()
        escaped.reserveCapacity(json.unicodeScalars.count)
        for scalar in json.unicodeScalars {
            switch scalar {
            case "<": escaped.append(contentsOf: "\\u003c".unicodeScalars)
            case ">": escaped.append(contentsOf: "\\u003e".unicodeScalars)
            case "&": escaped.append(contentsOf: "\\u0026".unicodeScalars)
            case "\u{2028}": escaped.append(contentsOf: "\\u2028".unicodeScalars)
            case "\u{2029}": escaped.append(contentsOf: "\\u2029".unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        return String(escaped)
    }

    /// `text` for a double-quoted HTML attribute value: `&`, `<`, `>`, `"` and `'` as character
    /// references. Used for the configured script URL and the Content-Security-Policy, never for
    /// order or consumer data.
    static func attribute(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }
}
