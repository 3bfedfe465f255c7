@_spi(EngageProvider) import EngageCore
import Foundation

/// Checks of user input shared by the gift-card clients, before anything is sent.
package enum GiftCardInput {
    /// The trimmed e-mail address, or `.invalidInput`.
    package static func email(_ email: String) throws(EngageError) -> String {
        let trimmed = email.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count >= 3, trimmed.count <= 254, trimmed.contains("@"), !trimmed.contains(where: \.isWhitespace) else {
            throw EngageError(.invalidInput, "The e-mail address is not valid.", providerID: .explore)
        }
        return trimmed
    }

    /// `value` when it has 1 to 200 characters (ids put in paths and queries), else `.invalidInput`.
    package static func identifier(_ value: String, _ what: String) throws(EngageError) -> String {
        guard !value.isEmpty, value.count <= 200 else {
            throw EngageError(.invalidInput, "The \(what) must have 1 to 200 characters.", providerID: .explore)
        }
        return value
    }
}
