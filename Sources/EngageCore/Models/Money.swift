import Foundation

/// An amount of money in minor units (cents) of an ISO 4217 currency: exact, never floating point.
public struct Money: Codable, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The amount in the currency's minor unit (e.g. cents).
    public var minorUnits: Int64
    /// The ISO 4217 code, uppercase (e.g. `EUR`).
    public var currency: String
    /// Digits after the decimal point for this currency (2 for EUR, 0 for JPY).
    public var fractionDigits: Int

    /// An amount of `minorUnits` of `currency` (uppercased), which has `fractionDigits` decimals.
    public init(minorUnits: Int64, currency: String, fractionDigits: Int = 2) {
        self.minorUnits = minorUnits
        self.currency = currency.uppercased()
        self.fractionDigits = fractionDigits
    }

    /// Parses a plain decimal string such as `"12.50"` or `"-3"` exactly; throws `.invalidInput` on
    /// anything else (exponents, grouping separators, more decimals than the currency has, overflow).
    public init(decimal text: String, currency: String, fractionDigits: Int = 2) throws(EngageError) {
        let invalid = EngageError(.invalidInput, "'\(text.prefix(40))' is not an amount with at most \(fractionDigits) decimals.")
        var digits = Substring(text.trimmingCharacters(in: .whitespaces))
        let negative = digits.first == "-"
        if negative || digits.first == "+" { digits = digits.dropFirst() }
        let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        let fraction = parts.count > 1 ? parts[1] : ""
        guard !whole.isEmpty || !fraction.isEmpty, fraction.count <= fractionDigits,
            (whole + fraction).allSatisfy({ $0.isASCII && $0.isNumber }),
            (parts.count == 1 || !fraction.isEmpty)
        else { throw invalid }
        let padded = String(whole) + fraction + String(repeating: "0", count: fractionDigits - fraction.count)
        guard let magnitude = Int64(padded.isEmpty ? "0" : padded) else { throw invalid }
        self.init(minorUnits: negative ? -magnitude : magnitude, currency: currency, fractionDigits: fractionDigits)
    }

    /// The amount as a `Decimal` in major units.
    public var decimalValue: Decimal {
        Decimal(minorUnits) / pow(10, fractionDigits)
    }

    /// Orders by currency code, then amount (amounts of different currencies are not converted).
    public static func < (lhs: Money, rhs: Money) -> Bool {
        (lhs.currency, lhs.minorUnits) < (rhs.currency, rhs.minorUnits)
    }

    /// The amount in major units and the currency, e.g. `12.5 EUR`.
    public var description: String {
        "\(decimalValue) \(currency)"
    }
}
