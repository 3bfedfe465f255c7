import Foundation
import HTTPTypes

/// Removes secrets from anything that is about to be logged: header values, query values, JSON and
/// form bodies, and free text.
///
/// It redacts by name (headers such as `Authorization` or any header whose name contains `token`,
/// `secret`, `signature`, `session`, `password`, `api-key`, `apikey` or `auth`; keys such as `password`,
/// `refresh_token`, `cardNumber`, `email`) and by shape (JSON Web Tokens, bearer credentials, e-mail
/// addresses, runs of 13 to 19 digits that may be card numbers, in text and as JSON numbers). A body
/// that is not parseable JSON (malformed, truncated, over 1 MiB) still has `"<key>": "<value>"` and
/// `<key>=<value>` pairs of sensitive keys hidden. Providers add their own names, e.g.
/// `redactor.adding(headers: ["loyalty-signature"])`.
@_spi(EngageProvider) public struct Redactor: Sendable {
    /// What replaces a secret.
    public static let mask = "<redacted>"

    /// Header names (lowercase) whose values are always hidden.
    public var sensitiveHeaders: Set<String>
    /// Keys (compared lowercase, ignoring `_` and `-`) whose values are hidden in queries and bodies.
    public var sensitiveKeys: Set<String>
    /// The longest body excerpt that is logged.
    public var maxBodyExcerpt: Int

    /// A redactor hiding the given header names and keys, logging body excerpts of at most
    /// `maxBodyExcerpt` characters (2048 by default).
    public init(
        sensitiveHeaders: Set<String> = Redactor.defaultSensitiveHeaders,
        sensitiveKeys: Set<String> = Redactor.defaultSensitiveKeys,
        maxBodyExcerpt: Int = 2048
    ) {
        self.sensitiveHeaders = Set(sensitiveHeaders.map { $0.lowercased() })
        self.sensitiveKeys = Set(sensitiveKeys.map(Redactor.normalizedKey))
        self.maxBodyExcerpt = maxBodyExcerpt
    }

    /// Header names always hidden, besides names containing a `sensitiveHeaderFragments` entry.
    public static let defaultSensitiveHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key",
    ]

    /// A header whose lowercase name contains one of these is hidden (e.g. `x-auth-token`,
    /// `x-session-id`, `loyalty-signature`).
    public static let sensitiveHeaderFragments: [String] = [
        "token", "secret", "signature", "session", "password", "api-key", "apikey", "auth",
    ]

    /// Keys (normalised: lowercase without `_`, `-`, `.`) whose values are hidden by default.
    public static let defaultSensitiveKeys: Set<String> = [
        "password", "passwd", "pass", "newpassword", "oldpassword", "secret", "clientsecret", "token",
        "accesstoken", "refreshtoken", "idtoken", "apikey", "authorization", "cardnumber", "pan",
        "cvv", "cvc", "pin", "claimcode", "email", "otp", "ticket", "signature", "webid", "jwt", "phone", "phonenumber",
        "msisdn", "mobile", "mobilenumber",
        // Personal names and dates of birth (Warply's `firstname`, PiggyCards' `first_name`…).
        "firstname", "lastname", "surname", "fullname", "givenname", "familyname", "birthdate", "dateofbirth", "dob",
    ]

    /// A copy that also hides these headers and keys.
    public func adding(headers: Set<String> = [], keys: Set<String> = []) -> Redactor {
        var copy = self
        copy.sensitiveHeaders.formUnion(headers.map { $0.lowercased() })
        copy.sensitiveKeys.formUnion(keys.map(Redactor.normalizedKey))
        return copy
    }

    /// Whether values under `key` are hidden.
    public func isSensitive(key: String) -> Bool {
        sensitiveKeys.contains(Redactor.normalizedKey(key))
    }

    /// Whether the values of the header `name` are hidden: a listed name, or one containing a
    /// `sensitiveHeaderFragments` entry.
    public func isSensitive(header name: String) -> Bool {
        let lowercased = name.lowercased()
        return sensitiveHeaders.contains(lowercased) || Redactor.sensitiveHeaderFragments.contains { lowercased.contains($0) }
    }

    /// Header fields as `name: value` lines with sensitive values hidden.
    public func redact(headers: HTTPFields) -> String {
        headers.map { field in
            let value = isSensitive(header: field.name.canonicalName) ? Redactor.mask : redact(text: field.value)
            return "\(field.name.rawName): \(value)"
        }.joined(separator: ", ")
    }

    /// A path with query values of sensitive keys hidden, and secret-shaped values hidden elsewhere.
    public func redactPath(_ path: String) -> String {
        guard let questionMark = path.firstIndex(of: "?") else { return redact(text: path) }
        let base = path[..<questionMark]
        let query = path[path.index(after: questionMark)...]
        return redact(text: String(base)) + "?" + redactForm(String(query))
    }

    /// `url` for a message: without its user, password and fragment, with query values of sensitive
    /// keys hidden and secret-shaped values hidden elsewhere, at most 300 characters.
    package func redact(url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return redact(text: String(url.absoluteString.prefix(300)))
        }
        components.user = nil
        components.password = nil
        components.fragment = nil
        return String(redactPath(components.string ?? "").prefix(300))
    }

    /// A body excerpt: JSON and form bodies with sensitive keys hidden, other text scrubbed by shape,
    /// binary bodies summarised by size.
    public func redact(body: Data, contentType: String? = nil) -> String {
        guard !body.isEmpty else { return "" }
        let isForm = contentType?.lowercased().contains("application/x-www-form-urlencoded") ?? false
        if !isForm, body.count <= 1_048_576, let json = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) {
            let cleaned = redact(jsonValue: json)
            if let data = try? JSONSerialization.data(withJSONObject: cleaned, options: [.sortedKeys, .fragmentsAllowed]),
                let text = String(data: data, encoding: .utf8)
            {
                return excerpt(text)
            }
        }
        guard let text = String(data: body.prefix(maxBodyExcerpt * 2), encoding: .utf8) else {
            return "<\(body.count) bytes>"
        }
        // Not parseable JSON (malformed, truncated or too large to parse): hide sensitive pairs by pattern.
        let cleaned = isForm ? redactForm(text) : redact(text: text)
        guard cleaned.count > maxBodyExcerpt || body.count > maxBodyExcerpt * 2 else { return cleaned }
        return String(cleaned.prefix(maxBodyExcerpt)) + "…(\(body.count) bytes)"
    }

    /// Free text with secret-shaped substrings hidden, and the values of `"<key>": "<value>"` and
    /// `<key>=<value>` pairs of sensitive keys.
    public func redact(text: String) -> String {
        var result = text
        for pattern in Redactor.patterns {
            result = pattern.regex.stringByReplacingMatches(
                in: result, range: NSRange(result.startIndex..., in: result), withTemplate: pattern.template
            )
        }
        return redactKeyValuePairs(result)
    }

    /// Hides the values of JSON-like `"key": value` and form-like `key=value` pairs whose key is
    /// sensitive, in text that could not be parsed (the value may be cut off).
    func redactKeyValuePairs(_ text: String) -> String {
        var result = text
        for regex in [Redactor.jsonPairPattern, Redactor.formPairPattern].compactMap({ $0?.regex }) {
            let matches = regex.matches(in: result, range: NSRange(result.startIndex..., in: result))
            // Replace from the end so earlier ranges stay valid.
            for match in matches.reversed() {
                let valueGroup = (2..<match.numberOfRanges).first { match.range(at: $0).location != NSNotFound }
                guard let keyRange = Range(match.range(at: 1), in: result), isSensitive(key: String(result[keyRange])),
                    let valueGroup, let valueRange = Range(match.range(at: valueGroup), in: result), !valueRange.isEmpty
                else { continue }
                result.replaceSubrange(valueRange, with: Redactor.mask)
            }
        }
        return result
    }

    // MARK: - Internals

    private func redactForm(_ query: String) -> String {
        query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return redact(text: String(pair)) }
            let rawKey = String(pair[..<equals])
            let key = rawKey.removingPercentEncoding ?? rawKey
            let value = String(pair[pair.index(after: equals)...])
            return "\(rawKey)=\(isSensitive(key: key) ? Redactor.mask : redact(text: value.removingPercentEncoding ?? value))"
        }.joined(separator: "&")
    }

    private func redact(jsonValue: Any) -> Any {
        switch jsonValue {
        case let dictionary as [String: Any]:
            var copy = [String: Any](minimumCapacity: dictionary.count)
            for (key, value) in dictionary {
                copy[key] = isSensitive(key: key) ? Redactor.mask : redact(jsonValue: value)
            }
            return copy
        case let array as [Any]:
            return array.map { redact(jsonValue: $0) }
        case let string as String:
            return redact(text: string)
        case let number as NSNumber:
            return Redactor.isCardShaped(number) ? Redactor.mask : number
        default:
            return jsonValue
        }
    }

    /// Whether a JSON number is an integer of 13 to 19 digits (a possible card number).
    private static func isCardShaped(_ number: NSNumber) -> Bool {
        let magnitude = abs(number.doubleValue)
        guard magnitude.isFinite, magnitude.rounded(.towardZero) == magnitude else { return false }
        return magnitude >= 1e12 && magnitude < 1e19
    }

    private func excerpt(_ text: String) -> String {
        text.count <= maxBodyExcerpt ? text : String(text.prefix(maxBodyExcerpt)) + "…(\(text.utf8.count) bytes)"
    }

    private static func normalizedKey(_ key: String) -> String {
        key.lowercased().filter { $0 != "_" && $0 != "-" && $0 != "." }
    }

    private struct Pattern: @unchecked Sendable {
        // NSRegularExpression is immutable after creation and documented as thread safe.
        let regex: NSRegularExpression
        let template: String
    }

    /// `"key": "value` (the closing quote may be missing) or `"key": 1234`; group 1 is the key, group 2
    /// the string value or group 3 the number.
    private static let jsonPairPattern =
        (try? NSRegularExpression(
            pattern: #""([^"\\]{1,64})"\s*:\s*(?:"((?:[^"\\]|\\.)*)|(-?[0-9][0-9.eE+-]*))"#
        )).map { Pattern(regex: $0, template: "") }

    /// `key=value` up to `&`, `?`, whitespace, quotes, `,` or `;`; group 1 is the key, group 2 the value.
    /// A value stops at `?` so that a URL quoted as a value (`NSErrorFailingURLKey=https://…?token=…`)
    /// leaves its query's pairs to be matched on their own.
    private static let formPairPattern =
        (try? NSRegularExpression(
            pattern: #"(?<![A-Za-z0-9_.\-])([A-Za-z0-9_.\-]{1,64})=([^&?\s"',;]*)"#
        )).map { Pattern(regex: $0, template: "") }

    private static let patterns: [Pattern] = [
        // JSON Web Tokens (three base64url segments, the first starting with "eyJ").
        (#"eyJ[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*"#, mask),
        // Bearer / Basic credentials in free text.
        (#"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}"#, "$1 \(mask)"),
        // E-mail addresses.
        (#"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}"#, mask),
        // 13 to 19 digits, optionally grouped by spaces or dashes: possible card numbers.
        (#"\b\d(?:[ -]?\d){12,18}\b"#, mask),
        // Phone numbers: 10 to 12 digits, or 7 to 15 after a `+`, optionally grouped by spaces or
        // dashes (`306912345678`, `+30 694 123 4567`). Shorter numbers (ids, amounts, years) stay.
        (#"(?:\+\d(?:[ -]?\d){6,14}|\b\d(?:[ -]?\d){9,11})\b"#, mask),
    ].compactMap { source, template in
        (try? NSRegularExpression(pattern: source)).map { Pattern(regex: $0, template: template) }
    }
}
