import Foundation

/// Amounts as the gift-card emulators write and read them (their own helpers: the clients' are not used).
enum GiftCardEmulatorMoney {
    /// `value` rounded half away from zero to `scale` decimals.
    static func rounded(_ value: Decimal, scale: Int) -> Decimal {
        var input = value
        var output = Decimal()
        NSDecimalRound(&output, &input, scale, .plain)
        return output
    }

    /// `25`, `25.5`: the shortest decimal form.
    static func plain(_ value: Decimal) -> String {
        NSDecimalNumber(decimal: value).stringValue
    }

    /// `25.00`: two decimals, a dot, no grouping, as the wallet sends `fiatAmount`.
    static func cents(_ value: Decimal) -> String {
        var exact = value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &exact, 2, .plain)
        let text = NSDecimalNumber(decimal: rounded).stringValue
        guard let dot = text.firstIndex(of: ".") else { return text + ".00" }
        let decimals = text.distance(from: dot, to: text.endIndex) - 1
        return decimals >= 2 ? text : text + String(repeating: "0", count: 2 - decimals)
    }

    /// A decimal amount from a request's string, or `nil` (not a plain decimal, more than two decimals).
    static func parse(_ text: String) -> Decimal? {
        guard !text.isEmpty, text.allSatisfy({ ($0.isASCII && $0.isNumber) || $0 == "." }), text.filter({ $0 == "." }).count <= 1,
            let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
        else { return nil }
        if let dot = text.firstIndex(of: "."), text.distance(from: dot, to: text.endIndex) - 1 > 2 { return nil }
        return value
    }
}
