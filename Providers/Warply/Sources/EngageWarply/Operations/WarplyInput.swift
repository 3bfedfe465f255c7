@_spi(EngageProvider) import EngageCore
import Foundation

/// Checks of caller input, before anything is sent.
enum WarplyInput {
    /// A plausible email address (one `@`, a dot in the domain, no spaces, at most 254 characters).
    static func email(_ text: String) throws {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard text.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."),
            !parts[1].hasSuffix("."), !text.contains(where: { $0.isWhitespace || $0.isNewline })
        else {
            throw EngageError(
                .invalidInput, "That is not an email address.", providerID: .warply, recoverySuggestion: "Check the address for typos.")
        }
    }

    /// A non-empty identifier on one line, at most `limit` characters.
    static func identifier(_ text: String, name: String, limit: Int = 256) throws {
        guard !text.isEmpty, text.count <= limit, !text.contains(where: \.isNewline) else {
            throw EngageError(.invalidInput, "\(name) must be 1 to \(limit) characters on one line.", providerID: .warply)
        }
    }

    /// A password of 1 to 256 characters.
    static func password(_ text: String, name: String) throws {
        guard !text.isEmpty, text.count <= 256 else {
            throw EngageError(.invalidInput, "\(name) must be 1 to 256 characters.", providerID: .warply)
        }
    }

    /// A phone number: optional `+`, then 6 to 15 digits (spaces and dashes ignored).
    static func phoneNumber(_ text: String) throws -> String {
        var digits = text.filter { $0 != " " && $0 != "-" }
        let plus = digits.hasPrefix("+")
        if plus { digits.removeFirst() }
        guard (6...15).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw EngageError(
                .invalidInput, "That is not a phone number (expected 6 to 15 digits, optionally with +).", providerID: .warply)
        }
        return (plus ? "+" : "") + digits
    }

    /// A card number: 12 to 19 digits once spaces and dashes are removed, passing the Luhn check.
    static func cardNumber(_ text: String) throws -> String {
        let digits = text.filter { $0 != " " && $0 != "-" }
        guard (12...19).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }), luhn(digits) else {
            throw EngageError(
                .invalidInput, "That is not a valid card number.", providerID: .warply, recoverySuggestion: "Check the digits.")
        }
        return digits
    }

    static func luhn(_ digits: String) -> Bool {
        var sum = 0
        for (index, character) in digits.reversed().enumerated() {
            guard var value = character.wholeNumberValue else { return false }
            if index % 2 == 1 {
                value *= 2
                if value > 9 { value -= 9 }
            }
            sum += value
        }
        return sum % 10 == 0
    }
}
