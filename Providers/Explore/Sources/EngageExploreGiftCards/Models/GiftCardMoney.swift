import Foundation

/// Exact money arithmetic for gift cards: amounts become integer minor units (cents) before any
/// percentage is applied, and percentages are basis points (1 % = 100).
package enum GiftCardMoney {
    /// `amount` in minor units (cents), or `nil` when it has fractions of a cent or does not fit.
    package static func minorUnits(of amount: Decimal) -> Int? {
        var scaled = amount * 100
        var rounded = Decimal()
        NSDecimalRound(&rounded, &scaled, 0, .plain)
        guard rounded == scaled, abs(rounded) < 1_000_000_000_000 else { return nil }
        return NSDecimalNumber(decimal: rounded).intValue
    }

    /// The decimal amount of `minorUnits` cents.
    package static func amount(minorUnits: Int) -> Decimal {
        Decimal(minorUnits) / 100
    }

    /// `minorUnits × basisPoints / 10 000`, rounded half away from zero, in integer arithmetic.
    package static func percentage(of minorUnits: Int, basisPoints: Int) -> Int {
        let product = minorUnits * basisPoints
        let quotient = product / 10_000
        let remainder = product % 10_000
        if abs(remainder) * 2 >= 10_000 { return quotient + (product < 0 ? -1 : 1) }
        return quotient
    }

    /// The amount with exactly two decimals and a `.` separator, as the APIs expect (`"25.50"`).
    package static func wireString(_ amount: Decimal) -> String {
        let minor = minorUnits(of: amount) ?? 0
        return wireString(minorUnits: minor)
    }

    /// `minorUnits` cents as a two-decimal string (`2550` → `"25.50"`).
    package static func wireString(minorUnits: Int) -> String {
        let sign = minorUnits < 0 ? "-" : ""
        let magnitude = abs(minorUnits)
        let cents = magnitude % 100
        return "\(sign)\(magnitude / 100).\(cents < 10 ? "0" : "")\(cents)"
    }

    /// The amount without trailing zeros, for messages (`25`, `25.5`).
    package static func plainString(_ amount: Decimal) -> String {
        NSDecimalNumber(decimal: amount).description(withLocale: Locale(identifier: "en_US_POSIX"))
    }

    /// A strict decimal reading of `text` (`"25"`, `"25.50"`, `" 100 "`): digits with an optional `.`
    /// part and sign; anything else (`"25abc"`, `"1e3"`, `"25,50"`) is `nil`.
    package static func parse(_ text: String) -> Decimal? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var digits = Substring(trimmed)
        if digits.first == "-" || digits.first == "+" { digits = digits.dropFirst() }
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }), parts[0].count <= 15
        else { return nil }
        return Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX"))
    }
}

extension Character {
    /// Whether this is one of `0`…`9`.
    package var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
