@_spi(EngageProvider) import EngageCore
import EngageWarply

/// A seed text in Greek and English.
struct WarplyLocalizedText: Sendable, Hashable {
    /// The Greek text.
    var greek: String
    /// The English text.
    var english: String

    init(_ greek: String, _ english: String) {
        self.greek = greek
        self.english = english
    }

    /// The text in `language`.
    func callAsFunction(_ language: WarplyLanguage) -> String {
        switch language {
        case .greek: greek
        case .english: english
        }
    }
}

extension WarplyLanguage {
    /// The language named by a request's `language` field: `en` is English, anything else (or nothing)
    /// Greek, the backend's default.
    init(requested: String?) {
        self = requested?.lowercased().hasPrefix("en") == true ? .english : .greek
    }
}
