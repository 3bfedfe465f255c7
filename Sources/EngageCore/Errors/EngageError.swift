/// The one error type of EngageKit's public API.
///
/// Every failure, whatever its origin (network, HTTP status, decoding, storage, configuration, a
/// provider's own rules), reaches the app as an `EngageError` carrying enough context to act on it:
///
/// ```swift
/// do {
///     let offers = try await engage.offers()
/// } catch let error as EngageError where error.isRetryable {
///     // show "try again"
/// } catch let error as EngageError {
///     log(error.code, error.providerID, error.message, error.recoverySuggestion)
/// }
/// ```
public struct EngageError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// What kind of failure this is. Providers extend the set with their own codes:
    ///
    /// ```swift
    /// extension EngageError.Code { static let couponAlreadyRedeemed: Self = "warply.couponAlreadyRedeemed" }
    /// ```
    public struct Code: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
        CustomStringConvertible
    {
        /// The code text, e.g. `"unauthorized"` or `"warply.couponAlreadyRedeemed"`.
        public let rawValue: String
        /// A code from its text.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A code from a string literal.
        public init(stringLiteral value: String) { self.rawValue = value }
        /// The code text.
        public var description: String { rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// The provider the failure belongs to, if any.
    public let providerID: ProviderID?
    /// A human-readable explanation, free of secrets.
    public let message: String
    /// The HTTP status code, when the failure is an HTTP response.
    public let httpStatus: Int?
    /// Whether repeating the same operation later may succeed.
    public let isRetryable: Bool
    /// What the app or its user can do about it.
    public let recoverySuggestion: String?
    /// The error this one wraps, if any.
    public let underlyingError: (any Error)?
    /// How long the server asked the client to wait before trying again (a `Retry-After` header on a
    /// 429 or 503, in seconds or as a date), measured when the answer arrived; `nil` when it did not say.
    public let retryAfter: Duration?

    /// An error of `code` with a human-readable `message` free of secrets, and optional context.
    public init(
        _ code: Code,
        _ message: String,
        providerID: ProviderID? = nil,
        httpStatus: Int? = nil,
        isRetryable: Bool = false,
        recoverySuggestion: String? = nil,
        underlyingError: (any Error)? = nil,
        retryAfter: Duration? = nil
    ) {
        self.code = code
        self.message = message
        self.providerID = providerID
        self.httpStatus = httpStatus
        self.isRetryable = isRetryable
        self.recoverySuggestion = recoverySuggestion
        self.underlyingError = underlyingError
        self.retryAfter = retryAfter
    }

    /// `[code] provider: message (HTTP status)`.
    public var description: String {
        var text = "[\(code.rawValue)]"
        if let providerID { text += " \(providerID.rawValue):" }
        text += " \(message)"
        if let httpStatus { text += " (HTTP \(httpStatus))" }
        return text
    }

    /// The description plus what failures of the code mean, the recovery suggestion and the
    /// underlying error, redacted: everything a developer reading a log needs.
    public var debugDescription: String {
        var text = description
        if let summary = code.summary { text += " Meaning: \(summary)" }
        if let recoverySuggestion { text += " Suggestion: \(recoverySuggestion)" }
        if let underlyingError {
            // Underlying errors (URL errors, decoding errors, server messages) may quote secrets.
            text += " Underlying: \(Redactor().redact(text: String(describing: underlyingError)))"
        }
        return text
    }

    /// The fields, with the underlying error as redacted text: `dump` and debuggers read this, and the
    /// wrapped error (a `URLError`'s failing URL, a server's message) may quote secrets.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "code": code.rawValue, "providerID": providerID?.rawValue as Any, "message": message, "httpStatus": httpStatus as Any,
                "isRetryable": isRetryable, "recoverySuggestion": recoverySuggestion as Any, "retryAfter": retryAfter as Any,
                "underlyingError": underlyingError.map { Redactor().redact(text: String(describing: $0)) } as Any,
            ],
            displayStyle: .struct
        )
    }

    /// A copy attributed to `providerID` unless it is attributed already.
    @_spi(EngageProvider) public func attributed(to providerID: ProviderID) -> EngageError {
        guard self.providerID == nil else { return self }
        return EngageError(
            code, message, providerID: providerID, httpStatus: httpStatus, isRetryable: isRetryable,
            recoverySuggestion: recoverySuggestion, underlyingError: underlyingError, retryAfter: retryAfter
        )
    }

    /// A copy that may be retried (a transient failure named as such where it was classified).
    package func markedRetryable() -> EngageError {
        guard !isRetryable else { return self }
        return EngageError(
            code, message, providerID: providerID, httpStatus: httpStatus, isRetryable: true,
            recoverySuggestion: recoverySuggestion, underlyingError: underlyingError, retryAfter: retryAfter
        )
    }

    /// A copy carrying the server's `Retry-After` (`delay`), unless it carries one already or `delay`
    /// is `nil`.
    package func withRetryAfter(_ delay: Duration?) -> EngageError {
        guard retryAfter == nil, let delay else { return self }
        return EngageError(
            code, message, providerID: providerID, httpStatus: httpStatus, isRetryable: isRetryable,
            recoverySuggestion: recoverySuggestion, underlyingError: underlyingError, retryAfter: delay
        )
    }
}

/// Errors are equal when their codes are: the code says what happened, the other fields describe the
/// occurrence. `error == EngageError(.unauthorized, "")` reads as "is an unauthorized error".
extension EngageError: Equatable {
    /// Whether `lhs` and `rhs` have the same ``code``.
    public static func == (lhs: EngageError, rhs: EngageError) -> Bool {
        lhs.code == rhs.code
    }
}

extension EngageError.Code {
    /// Configuration is missing, malformed or fails validation.
    public static let invalidConfiguration: Self = "invalidConfiguration"
    /// An operation was used before its provider or the SDK was configured and started.
    public static let notConfigured: Self = "notConfigured"
    /// Two providers were registered under the same id.
    public static let duplicateProvider: Self = "duplicateProvider"
    /// No provider with the requested id or type is registered and running.
    public static let providerNotFound: Self = "providerNotFound"
    /// A provider failed to initialise or start.
    public static let providerStartFailed: Self = "providerStartFailed"
    /// A provider does not offer the requested capability or operation.
    public static let unsupported: Self = "unsupported"
    /// The input given to an operation is invalid (bad id, out-of-range amount, hostile string...).
    public static let invalidInput: Self = "invalidInput"
    /// The request could not reach the server, or the connection failed.
    public static let network: Self = "network"
    /// The request took longer than its timeout.
    public static let timeout: Self = "timeout"
    /// The operation was cancelled.
    public static let cancelled: Self = "cancelled"
    /// The server answered with an unexpected HTTP status.
    public static let httpStatus: Self = "httpStatus"
    /// The server's response could not be decoded.
    public static let decoding: Self = "decoding"
    /// A request body could not be encoded.
    public static let encoding: Self = "encoding"
    /// Credentials are missing or were refused.
    public static let unauthorized: Self = "unauthorized"
    /// The session ended: the refresh token was rejected; the user must log in again.
    public static let sessionExpired: Self = "sessionExpired"
    /// Calls are refused for a while after repeated failures (circuit breaker open).
    public static let circuitOpen: Self = "circuitOpen"
    /// The server answered with GraphQL errors.
    public static let graphQL: Self = "graphQL"
    /// Local storage failed.
    public static let storage: Self = "storage"
    /// Sealing or opening a secret failed, or sealed data was tampered with.
    public static let crypto: Self = "crypto"
    /// A bounded queue is full and its policy rejects new items.
    public static let queueFull: Self = "queueFull"
    /// `Engage.configure(with:)` was called when `Engage.shared` was configured already (the first
    /// configuration stays).
    public static let alreadyConfigured: Self = "alreadyConfigured"
    /// The former name of ``alreadyConfigured``: the same code, so `error.code == .alreadyBootstrapped`
    /// still matches.
    @available(*, deprecated, renamed: "alreadyConfigured")
    public static var alreadyBootstrapped: Self { .alreadyConfigured }
    /// An internal invariant failed; please report it.
    public static let `internal`: Self = "internal"
    /// A response body is larger than the accepted limit (`network.maxResponseBytes`, or the
    /// request's own), announced by `Content-Length` or received; nothing of it was decoded.
    public static let responseTooLarge: Self = "responseTooLarge"
    /// The server redirected the request somewhere it may not follow: a downgrade from https to http,
    /// or another origin that would receive the request's body (credentials never leave their origin).
    public static let redirectRefused: Self = "redirectRefused"
    /// The operation does not apply to this provider; a fan-out reports it in `notApplicable`, not as a
    /// failure (a provider whose session belongs to the host app, asked to log a user in).
    public static let notApplicable: Self = "notApplicable"
}
