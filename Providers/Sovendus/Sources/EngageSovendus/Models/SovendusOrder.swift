@_spi(EngageProvider) import EngageCore
import Foundation

/// The order a Sovendus banner is shown for, or a coupon is redeemed for.
///
/// Text fields are free text and may hold anything (the banner page encodes them safely); the typed
/// fields are checked when a page is built or a coupon redeemed:
/// ```swift
/// let order = SovendusOrder(id: "Order-123", netValue: 120.5, currency: "EUR", couponCode: "WELCOME10", placedAt: Date())
/// ```
/// Its description hides the coupon code.
public struct SovendusOrder: Sendable, Hashable {
    /// The shop's order id (`orderId`).
    public var id: String
    /// The order's net value, without tax and shipping (`orderValue`). Must be finite, not negative,
    /// and below one trillion; it is sent with two decimals and a `.` separator, whatever the locale.
    public var netValue: Decimal
    /// The ISO 4217 currency code, three upper-case letters (`orderCurrency`), e.g. `EUR`.
    public var currency: String
    /// The coupon code used with the order (`usedCouponCode`), if any.
    public var couponCode: String?
    /// The shop's session id (`sessionId`), if it has one.
    public var sessionID: String?
    /// When the order was placed (`timestamp`, as Unix seconds); the provider's clock when `nil`.
    public var placedAt: Date?

    /// An order; only its id, net value and currency are required.
    public init(id: String, netValue: Decimal, currency: String, couponCode: String? = nil, sessionID: String? = nil, placedAt: Date? = nil)
    {
        self.id = id
        self.netValue = netValue
        self.currency = currency
        self.couponCode = couponCode
        self.sessionID = sessionID
        self.placedAt = placedAt
    }

    /// The order id, value and currency; the coupon code redacted.
    public var description: String {
        "SovendusOrder(id: \(id), netValue: \(netValue), currency: \(currency), couponCode: \(couponCode == nil ? "nil" : "<redacted>"))"
    }

    /// Order times accepted, in Unix seconds: 1970 to 2100 (a NaN or infinite time is outside).
    static let placedRange: ClosedRange<TimeInterval> = 0...4_102_444_800

    /// The largest net value accepted (exclusive): one trillion.
    static let valueLimit = Decimal(1_000_000_000_000)

    /// Problems that keep this order from being sent, as sentences naming the field.
    func validationIssues() -> [String] {
        var issues: [String] = []
        if id.isEmpty { issues.append("The order id must not be empty.") }
        if netValue.isNaN || !netValue.isFinite {
            issues.append("The order's net value must be a finite number.")
        } else if netValue < 0 {
            issues.append("The order's net value must not be negative.")
        } else if netValue >= Self.valueLimit {
            issues.append("The order's net value must be below one trillion.")
        }
        if !SovendusText.isCurrencyCode(currency) {
            issues.append("The currency must be an ISO 4217 code of three upper-case letters, such as EUR.")
        }
        if let placedAt, !Self.placedRange.contains(placedAt.timeIntervalSince1970) {
            issues.append("The order time must be between 1970 and 2100.")
        }
        for (name, value) in [("order id", id as String?), ("coupon code", couponCode), ("session id", sessionID)] {
            if let value, value.utf8.count > SovendusText.maxFieldBytes {
                issues.append("The \(name) must be at most \(SovendusText.maxFieldBytes) bytes of UTF-8.")
            }
        }
        return issues
    }

    /// The net value as Sovendus writes it: two decimals, `.` as separator (`"12.34"`).
    var formattedNetValue: String { SovendusText.twoDecimals(netValue) }
}

/// Shared rules and formats of the Sovendus text fields.
enum SovendusText {
    /// The most UTF-8 bytes one free-text field may hold (64 KiB): more is not a name or an address.
    static let maxFieldBytes = 65_536

    static func isCurrencyCode(_ text: String) -> Bool {
        text.unicodeScalars.count == 3 && text.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) }
    }

    static func isCountryCode(_ text: String) -> Bool {
        text.unicodeScalars.count == 2 && text.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) }
    }

    /// `value` rounded half away from zero to two decimals, written with `.`: `12.3` is `"12.30"`.
    /// `value` must be finite and non-negative.
    static func twoDecimals(_ value: Decimal) -> String {
        var input = value * 100
        var cents = Decimal()
        NSDecimalRound(&cents, &input, 0, .plain)
        // Decimal's description is locale-independent and, for an integral value, has no separator.
        let digits = cents.description
        let padded = String(repeating: "0", count: max(0, 3 - digits.count)) + digits
        return "\(padded.dropLast(2)).\(padded.suffix(2))"
    }
}

/// Secrets stay out of `dump`, debuggers and `Mirror` (`SecretBearing`).
@_spi(EngageProvider) extension SovendusOrder: SecretBearing {}
