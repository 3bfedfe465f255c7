import Foundation

// MARK: - Foundation bridging

/// `EngageError` as Foundation and Objective-C see it: `localizedDescription` (what SwiftUI alerts and
/// crash reporters show) is the error's ``message``, and an `NSError` made from it has one stable
/// domain and a distinct, stable number per ``Code`` (``Code/number``), so reporters group failures
/// by kind instead of as one issue.
///
/// ```swift
/// do {
///     _ = try await engage.offers()
/// } catch {
///     let nsError = error as NSError
///     // nsError.domain == EngageError.errorDomain, nsError.code == EngageError.Code.network.number (8)
///     showAlert(title: error.localizedDescription, message: (error as? LocalizedError)?.recoverySuggestion)
/// }
/// ```
extension EngageError: LocalizedError {
    /// The ``message``: what happened, free of secrets.
    public var errorDescription: String? { message }

    /// What this kind of failure means, from the ``Code`` (and the HTTP status, when there is one);
    /// `nil` for a code EngageKit does not know (a third-party provider's).
    public var failureReason: String? {
        guard let summary = code.summary else { return nil }
        if let httpStatus { return "\(summary) (HTTP \(httpStatus))" }
        return summary
    }
}

extension EngageError: CustomNSError {
    /// The domain of every `NSError` made from an `EngageError`: `"EngageKit.EngageError"`.
    public static let errorDomain = "EngageKit.EngageError"

    /// ``Code/number``: stable across releases, distinct per code.
    public var errorCode: Int { code.number }

    /// The error's context for logs and crash reporters, without secrets: the description, reason and
    /// suggestion under Foundation's keys, plus `EngageErrorCode` (the code's text), `EngageProviderID`,
    /// `EngageHTTPStatus`, `EngageRetryable` and `EngageRetryAfterSeconds` where they apply. The
    /// underlying error is left out: it may quote a URL or a server's text with a secret in it.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [
            NSLocalizedDescriptionKey: message,
            Self.codeKey: code.rawValue,
            Self.retryableKey: isRetryable,
        ]
        if let failureReason { info[NSLocalizedFailureReasonErrorKey] = failureReason }
        if let recoverySuggestion { info[NSLocalizedRecoverySuggestionErrorKey] = recoverySuggestion }
        if let providerID { info[Self.providerKey] = providerID.rawValue }
        if let httpStatus { info[Self.httpStatusKey] = httpStatus }
        if let retryAfter {
            let parts = retryAfter.components
            info[Self.retryAfterKey] = Double(parts.seconds) + Double(parts.attoseconds) / 1e18
        }
        return info
    }

    /// The `errorUserInfo` key of the ``Code``'s text, e.g. `"warply.requestRejected"`.
    static let codeKey = "EngageErrorCode"
    /// The `errorUserInfo` key of the provider's id, when the failure belongs to one.
    static let providerKey = "EngageProviderID"
    /// The `errorUserInfo` key of the HTTP status, when the failure is an HTTP answer.
    static let httpStatusKey = "EngageHTTPStatus"
    /// The `errorUserInfo` key of ``isRetryable``.
    static let retryableKey = "EngageRetryable"
    /// The `errorUserInfo` key of ``retryAfter``, in seconds.
    static let retryAfterKey = "EngageRetryAfterSeconds"
}

// MARK: - The code table

extension EngageError.Code {
    /// The code's number: its `NSError` code (`(error as NSError).code`). Stable across releases: a
    /// number is never reused, and a code never changes its number.
    ///
    /// Every code EngageKit declares has a number in its table (1–99 the core's, 1000 and up the
    /// built-in providers'; the list is in the error-codes article). A code the table does not know (a
    /// third-party provider's) gets a number from its text: the 32-bit FNV-1a hash of its UTF-8 bytes,
    /// mapped into 100 000…999 999, the same on every platform and in every process.
    public var number: Int {
        if let entry = Self.table[rawValue] { return entry.number }
        var hash: UInt32 = 2_166_136_261
        for byte in rawValue.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        return 100_000 + Int(hash % 900_000)
    }

    /// What failures of this code mean, for ``EngageError/failureReason``; `nil` for a code the table
    /// does not know.
    var summary: String? { Self.table[rawValue]?.summary }

    /// Every code EngageKit declares, by text: its number and what it means. Numbers are permanent:
    /// append new codes with new numbers, never renumber (`api/error-codes.txt` holds the list a test
    /// compares with).
    package static let table: [String: (number: Int, summary: String)] = [
        // The core's codes.
        "invalidConfiguration": (1, "The configuration is missing a value, malformed, or fails validation."),
        "notConfigured": (2, "EngageKit or the provider was used before it was configured and started."),
        "duplicateProvider": (3, "Two providers were registered under the same id."),
        "providerNotFound": (4, "No provider with the requested id or type is registered and running."),
        "providerStartFailed": (5, "A provider failed to initialise or start."),
        "unsupported": (6, "No running provider offers the requested capability or operation."),
        "invalidInput": (7, "An argument of the call is invalid."),
        "network": (8, "The request could not reach the server, or the connection failed."),
        "timeout": (9, "The request took longer than its time limit."),
        "cancelled": (10, "The operation was cancelled."),
        "httpStatus": (11, "The server answered with an HTTP status the call does not accept."),
        "decoding": (12, "The server's answer could not be read."),
        "encoding": (13, "The request could not be encoded."),
        "unauthorized": (14, "The credentials are missing or were refused."),
        "sessionExpired": (15, "The user's session ended; the user must log in again."),
        "circuitOpen": (16, "Calls to this provider are paused after repeated failures."),
        "graphQL": (17, "The GraphQL server answered with errors."),
        "storage": (18, "The SDK's local storage failed."),
        "crypto": (19, "A sealed secret could not be sealed or opened."),
        "queueFull": (20, "The analytics queue is full and its policy refuses new events."),
        "alreadyBootstrapped": (21, "Engage.shared was configured already."),
        "internal": (22, "An internal invariant of EngageKit failed."),
        "responseTooLarge": (23, "The server's answer is larger than the accepted limit."),
        "redirectRefused": (24, "The server redirected the request where it may not follow."),
        "notApplicable": (25, "The operation does not apply to this provider; it is not a failure."),
        // Warply.
        "warply.requestRejected": (1001, "Warply answered with a status other than success."),
        "warply.registrationInvalid": (1002, "Warply refused the request's signature (merchant id or device registration)."),
        "warply.couponNotRedeemable": (1003, "The coupon cannot be redeemed: already redeemed, expired or unknown."),
        // Crobox.
        "crobox.unknownContainer": (1101, "Crobox does not know the container id."),
        // Youll.
        "youll.missingAccessToken": (1201, "The call needs the user's access token and the host app's session has none."),
        "youll.notCached": (1202, "A cache-only query found nothing in the cache."),
        // Sovendus.
        "sovendus.invalidTrafficSource": (1301, "Sovendus does not accept the traffic source number."),
        "sovendus.redemptionRejected": (1302, "Sovendus refused a field of the redemption."),
        "sovendus.redemptionFailed": (1303, "Sovendus failed the redemption; it may have been recorded."),
        "sovendus.rejectedMessage": (1304, "The Sovendus banner page sent a message the bridge refuses."),
        // Explore: the directory.
        "explore.directoryMissing": (1401, "The merchant directory has not been synced yet."),
        "explore.downloadInvalid": (1402, "The downloaded merchant directory failed verification."),
        // Explore: gift cards.
        "explore.giftCard.amountInvalid": (1501, "The amount is not one the merchant sells."),
        "explore.giftCard.codeInvalid": (1502, "The verification code or one-time password was refused."),
        "explore.giftCard.rejected": (1503, "The gift-card provider refused or cancelled the purchase."),
        "explore.giftCard.outOfStock": (1504, "The gift card product is out of stock."),
        "explore.giftCard.pending": (1505, "The gift card was not delivered yet when polling gave up."),
        "explore.giftCard.server": (1506, "The gift-card provider answered with a server error."),
        "explore.giftCard.unexpectedAnswer": (1507, "The gift-card provider answered with a shape the client cannot use."),
    ]
}
