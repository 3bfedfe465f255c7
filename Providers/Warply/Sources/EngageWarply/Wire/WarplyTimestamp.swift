import Foundation
import Synchronization

/// A date as Warply sends it: the server's text, kept exactly, plus the instant it denotes.
///
/// Warply dates come in several spellings (`yyyy-MM-dd HH:mm:ssZZZZZ`, `yyyy-MM-dd HH:mm:ss`,
/// `yyyy-MM-dd HH:mm:ss.SSSSSS`, and `yyyy-MM-dd HH:mm` for coupon-set expirations). The text is
/// kept so a value re-encodes byte for byte; `date` is `nil` when the text matches none of the
/// formats (the model still decodes: one odd date never loses a whole list). Dates without a zone are
/// read in `WarplyTimestamp.serverTimeZone` (Europe/Athens, where the backend runs).
public struct WarplyTimestamp: Codable, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The text as received.
    public let text: String
    /// The instant, when `text` is in a known format.
    public let date: Date?

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
    }

    /// A timestamp for `date`, written as `yyyy-MM-dd HH:mm:ss` in the server's zone (or another format).
    public init(_ date: Date, format: String = "yyyy-MM-dd HH:mm:ss") {
        self.text = Self.string(from: date, format: format)
        self.date = Self.parse(text)
    }

    /// Decodes the text (a JSON string; a number is read as Unix seconds).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self.init(text)
        } else if let seconds = try? container.decode(Double.self), seconds.isFinite {
            self.init(Date(timeIntervalSince1970: seconds))
        } else {
            throw DecodingError.typeMismatch(
                String.self, .init(codingPath: decoder.codingPath, debugDescription: "Expected a date string such as 2026-11-21 10:00:00.")
            )
        }
    }

    /// Encodes the original text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    /// The date written with `format` (e.g. `dd/MM/yyyy`, as the seed's screens show it), in the
    /// server's zone; `nil` when the text is not a known date.
    public func formatted(_ format: String) -> String? {
        date.map { Self.string(from: $0, format: format) }
    }

    /// Orders by instant; unknown dates sort before known ones, then by text.
    public static func < (lhs: WarplyTimestamp, rhs: WarplyTimestamp) -> Bool {
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
    private static let formatters = Mutex<[String: DateFormatter]>([:])

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
