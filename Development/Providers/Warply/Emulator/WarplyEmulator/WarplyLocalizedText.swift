@_spi(EngageProvider) import EngageCore

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
    func callAsFunction(_ language: ServedLanguage) -> String {
        switch language {
        case .greek: greek
        case .english: english
        }
    }
}

/// A language the emulator answers in, by the code requests carry: the emulator's own, so that a
/// client whose language codes drift is not agreed with.
enum ServedLanguage: String, Sendable, Hashable, CaseIterable {
    /// Greek, the backend's default.
    case greek = "el"
    /// English.
    case english = "en"

    /// The language named by a request's `language` field: `en` is English, anything else (or nothing)
    /// Greek, the backend's default.
    init(requested: String?) {
        self = requested?.lowercased().hasPrefix("en") == true ? .english : .greek
    }
}
