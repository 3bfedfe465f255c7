/// Text in one or more languages, keyed by BCP 47 language code (`en`, `el`, `de-DE`).
public struct LocalizedText: Codable, Sendable, Hashable, ExpressibleByStringLiteral {
    /// Translations by language code.
    public var values: [String: String]
    /// The language used when a requested one is missing.
    public var defaultLanguage: String

    /// Text in the languages of `values`, falling back to `defaultLanguage` (`en` by default).
    public init(_ values: [String: String], defaultLanguage: String = "en") {
        self.values = values
        self.defaultLanguage = defaultLanguage
    }

    /// A single text in `language`.
    public init(_ text: String, language: String = "en") {
        self.init([language: text], defaultLanguage: language)
    }

    /// A single English text from a string literal.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The text in `language` (or its base language, e.g. `de` for `de-AT`), else the default
    /// language, else any.
    public func value(for language: String? = nil) -> String {
        if let language {
            if let exact = values[language] { return exact }
            if let base = language.split(separator: "-").first.map(String.init), let text = values[base] { return text }
        }
        return values[defaultLanguage] ?? values.sorted { $0.key < $1.key }.first?.value ?? ""
    }
}
