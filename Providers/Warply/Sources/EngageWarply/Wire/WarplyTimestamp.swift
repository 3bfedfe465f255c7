import Foundation
@_spi(EngageProvider) import EngageCore

/// A date as Warply sends it: the server's text, kept exactly, plus the instant it denotes.
///
/// Warply dates come in several spellings (`yyyy-MM-dd HH:mm:ssZZZZZ`, `yyyy-MM-dd HH:mm:ss`,
/// `yyyy-MM-dd HH:mm:ss.SSSSSS`, and `yyyy-MM-dd HH:mm` for coupon-set expirations). The text is
/// kept so a value re-encodes byte for byte; `date` is `nil` when the text matches none of the
/// formats (the model still decodes: one odd date never loses a whole list). Dates without a zone are
/// read in `WarplyTimestamp.serverTimeZone` (Europe/Athens, where the backend runs). A timestamp the
/// server sent as a number (Unix seconds) re-encodes as that number.
public struct WarplyTimestamp: Codable, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The text as received.
    public let text: String
    /// The instant, when `text` is in a known format (or the timestamp was made from a date).
    public let date: Date?
    /// The Unix seconds, when the server sent the timestamp as a number: encoding writes it back as a number.
    private let seconds: JSONNumber?

    /// A number as it was decoded, so it re-encodes with the same spelling.
    private enum JSONNumber: Hashable {
        case integer(Int64)
        case double(Double)

        var value: Double {
            switch self {
            case let .integer(value): Double(value)
            case let .double(value): value
            }
        }

        var isInteger: Bool {
            if case .integer = self { true } else { false }
        }
    }

    /// The zone of timestamps sent without an offset.
    public static let serverTimeZone = TimeZone(identifier: "Europe/Athens") ?? TimeZone(secondsFromGMT: 7200) ?? .current

    /// The formats tried, in order.
    public static let formats = [
        "yyyy-MM-dd HH:mm:ssZZZZZ", "yyyy-MM-dd HH:mm:ss.SSSSSS", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd",
    ]

    /// A timestamp from the server's text.
    public init(_ text: String) {
        self.text = text
        self.date = Self.parse(text)
        self.seconds = nil
    }

    /// A timestamp for `date`, written as `yyyy-MM-dd HH:mm:ss` in the server's zone (or another format).
    ///
    /// `date` is the instant the text denotes: `date` rounded down to what `format` shows (whole seconds
    /// by default), whichever format is used, also one outside ``formats`` such as `dd/MM/yyyy`.
    public init(_ date: Date, format: String = "yyyy-MM-dd HH:mm:ss") {
        let (text, shown) = Self.formatters.withLock { cache in
            let formatter = Self.formatter(format, in: &cache)
            let text = formatter.string(from: date)
            return (text, formatter.date(from: text))
        }
        self.text = text
        self.date = shown ?? Self.parse(text) ?? date
        self.seconds = nil
    }

    private init(seconds: JSONNumber, value: Double) {
        let written = WarplyTimestamp(Date(timeIntervalSince1970: value))
        self.init(text: written.text, date: written.date, seconds: seconds)
    }

    private init(text: String, date: Date?, seconds: JSONNumber?) {
        self.text = text
        self.date = date
        self.seconds = seconds
    }

    /// Decodes the text (a JSON string; a number is read as Unix seconds, and re-encodes as that number).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self.init(text)
        } else if let seconds = try? container.decode(Int64.self) {
            self.init(seconds: .integer(seconds), value: Double(seconds))
        } else if let seconds = try? container.decode(Double.self), seconds.isFinite {
            self.init(seconds: .double(seconds), value: seconds)
        } else {
            throw DecodingError.typeMismatch(
                String.self, .init(codingPath: decoder.codingPath, debugDescription: "Expected a date string such as 2026-11-21 10:00:00.")
            )
        }
    }

    /// Encodes the original text, or the original number when the server sent one.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch seconds {
        case let .integer(value)?: try container.encode(value)
        case let .double(value)?: try container.encode(value)
        case nil: try container.encode(text)
        }
    }

    /// The date written with `format` (e.g. `dd/MM/yyyy`, as the seed's screens show it), in the
    /// server's zone; `nil` when the text is not a known date.
    public func formatted(_ format: String) -> String? {
        date.map { Self.string(from: $0, format: format) }
    }

    /// Orders by instant; unknown dates sort before known ones, then by text; at equal text a
    /// timestamp sent as text comes before one sent as a number, and numbers by value.
    public static func < (lhs: WarplyTimestamp, rhs: WarplyTimestamp) -> Bool {
        if lhs.date == rhs.date, lhs.text == rhs.text {
            switch (lhs.seconds, rhs.seconds) {
            case let (left?, right?): return left.value < right.value || (left.value == right.value && left.isInteger && !right.isInteger)
            case (nil, _?): return true
            default: return false
            }
        }
        switch (lhs.date, rhs.date) {
        case let (left?, right?): return left == right ? lhs.text < rhs.text : left < right
        case (nil, _?): return true
        case (_?, nil): return false
        case (nil, nil): return lhs.text < rhs.text
        }
    }

    /// The text.
    public var description: String { text }

    static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= 40 else { return nil }
        return formatters.withLock { cache in
            for format in formats {
                if let date = formatter(format, in: &cache).date(from: trimmed) { return date }
            }
            return nil
        }
    }

    /// Formatters by format. `DateFormatter` is not documented as thread-safe on every platform, so
    /// they are used only under this lock.
    private static let formatters = Locked<[String: DateFormatter]>([:])

    /// `date` written with `format` in the server's zone, with the shared formatter, under the lock.
    private static func string(from date: Date, format: String) -> String {
        formatters.withLock { formatter(format, in: &$0).string(from: date) }
    }

    private static func formatter(_ format: String, in cache: inout [String: DateFormatter]) -> DateFormatter {
        if let formatter = cache[format] { return formatter }
        let formatter = makeFormatter(format)
        cache[format] = formatter
        return formatter
    }

    private static func makeFormatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = serverTimeZone
        formatter.dateFormat = format
        formatter.isLenient = false
        return formatter
    }
}
