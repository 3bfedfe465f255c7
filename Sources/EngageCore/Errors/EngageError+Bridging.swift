import Foundation

// MARK: - Foundation bridging

/// `EngageError` as Foundation and Objective-C see it: `localizedDescription` (what SwiftUI alerts and
/// crash reporters show) is a short sentence a user may read, in the app's language; the developer's
/// explanation is the ``failureReason`` (the error's ``message``), the ``recoverySuggestion`` and
/// ``debugDescription``. An `NSError` made from it has one stable domain and a distinct, stable number
/// per ``Code`` (``Code/number``), so reporters group failures by kind instead of as one issue.
///
/// ```swift
/// do {
///     _ = try await engage.offers()
/// } catch {
///     showAlert(message: error.localizedDescription)   // "You appear to be offline. Check your connection…"
///     logger.error("\(String(reflecting: error))")     // code, provider, message, suggestion: for you
///     // (error as NSError).domain == EngageError.errorDomain; .code == EngageError.Code.network.number (8)
/// }
/// ```
extension EngageError: LocalizedError {
    /// One short sentence a user may be shown, without technical detail, in the app's language
    /// (English, German or Greek; English for any other): that the device seems offline, that the
    /// service is unavailable, that the user must sign in again… It depends on the ``code`` (and the
    /// HTTP status). The developer's explanation is ``failureReason``.
    public var errorDescription: String? { userMessage.localized }

    /// The ``message``: what happened, for the developer, free of secrets.
    public var failureReason: String? { message }
}

extension EngageError: CustomNSError {
    /// The domain of every `NSError` made from an `EngageError`: `"EngageKit.EngageError"`.
    public static let errorDomain = "EngageKit.EngageError"

    /// ``Code/number``: stable across releases, distinct per code.
    public var errorCode: Int { code.number }

    /// The error's context for logs and crash reporters, without secrets: the user's text, the
    /// developer's message (the failure reason) and the suggestion under Foundation's keys, plus `EngageErrorCode` (the code's text), `EngageProviderID`,
    /// `EngageHTTPStatus`, `EngageRetryable` and `EngageRetryAfterSeconds` where they apply. The
    /// underlying error is left out: it may quote a URL or a server's text with a secret in it.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [
            NSLocalizedDescriptionKey: userMessage.localized,
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
    /// A code's permanent number and what failures of it mean, as the module that declares the code
    /// registers them with the core (a provider's ``EngageProvider/errorCodes``).
    @_spi(EngageProvider) public struct Entry: Sendable, Hashable {
        /// The code.
        public let code: EngageError.Code
        /// Its `NSError` code: 1000 or more (below is the core's), never reused for another code.
        public let number: Int
        /// One sentence on what failures of this code mean, for `EngageError.debugDescription` and the
        /// error-codes documentation.
        public let summary: String

        /// The entry of `code`, numbered `number`, meaning `summary`.
        public init(_ code: EngageError.Code, number: Int, summary: String) {
            self.code = code
            self.number = number
            self.summary = summary
        }
    }

    /// The code's number: its `NSError` code (`(error as NSError).code`). Stable across releases: a
    /// number is never reused, and a code never changes its number.
    ///
    /// The core's codes are numbered 1–99; a provider's are the numbers it registers with its
    /// ``EngageProvider/errorCodes`` (the built-in providers' from 1000 up; the list is in the
    /// error-codes article), known once the provider is registered. A code nobody registered (a
    /// third-party provider that declares no numbers) gets a number from its text: the 32-bit FNV-1a
    /// hash of its UTF-8 bytes, mapped into 100 000…999 999, the same on every platform and in every
    /// process.
    public var number: Int {
        if let entry = Self.entry(for: rawValue) { return entry.number }
        var hash: UInt32 = 2_166_136_261
        for byte in rawValue.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        return 100_000 + Int(hash % 900_000)
    }

    /// What failures of this code mean, for ``EngageError/debugDescription``; `nil` for a code nobody
    /// registered.
    var summary: String? { Self.entry(for: rawValue)?.summary }

    /// The number and summary of the code `text`: the core's, else a registered one.
    private static func entry(for text: String) -> (number: Int, summary: String)? {
        coreTable[text] ?? registered.withLock { $0[text] }
    }

    /// Registers `entries`, each code with its number and summary: from now on ``number`` and
    /// `EngageError.debugDescription` use them. Registering the same entries again changes nothing; the
    /// registry registers every provider's ``EngageProvider/errorCodes`` as the provider is registered.
    ///
    /// - Throws: `.invalidConfiguration`, registering none of `entries`, when a number is below 1000
    ///   (the core's), is given to two codes, or a code was registered with another number.
    @_spi(EngageProvider) public static func register(_ entries: [Entry]) throws(EngageError) {
        let problems = registered.withLock { registered -> [String] in
            var problems: [String] = []
            var numbers = Dictionary(uniqueKeysWithValues: coreTable.map { ($0.value.number, $0.key) })
            for (code, entry) in registered { numbers[entry.number] = code }
            var adding: [String: (number: Int, summary: String)] = [:]
            for entry in entries {
                let code = entry.code.rawValue
                if entry.number < 1000 { problems.append("\(code) has number \(entry.number); numbers below 1000 are the core's") }
                if coreTable[code] != nil { problems.append("\(code) is a core code") }
                if let known = registered[code] ?? adding[code], known.number != entry.number {
                    problems.append("\(code) is registered with number \(known.number), not \(entry.number)")
                }
                if let owner = numbers[entry.number], owner != code {
                    problems.append("\(code) and \(owner) both have number \(entry.number)")
                }
                numbers[entry.number] = code
                adding[code] = (entry.number, entry.summary)
            }
            if problems.isEmpty { registered.merge(adding) { _, new in new } }
            return problems
        }
        guard problems.isEmpty else {
            throw EngageError(
                .invalidConfiguration, "The error codes could not be registered: \(problems.joined(separator: "; ")).",
                recoverySuggestion: "Give each code its own number of 1000 or more, and never renumber one.")
        }
    }

    /// The codes providers registered, by text.
    private static let registered = Locked<[String: (number: Int, summary: String)]>([:])

    /// Every code known now, by text: the core's and the registered ones (tests compare it with
    /// `api/error-codes.txt`).
    package static var table: [String: (number: Int, summary: String)] {
        coreTable.merging(registered.value) { core, _ in core }
    }

    /// The core's codes, by text: their numbers (1–99) and what they mean. Numbers are permanent:
    /// append new codes with new numbers, never renumber (`api/error-codes.txt` holds the list a test
    /// compares with).
    package static let coreTable: [String: (number: Int, summary: String)] = [
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
        "alreadyConfigured": (21, "Engage.shared was configured already."),
        "internal": (22, "An internal invariant of EngageKit failed."),
        "responseTooLarge": (23, "The server's answer is larger than the accepted limit."),
        "redirectRefused": (24, "The server redirected the request where it may not follow."),
        "notApplicable": (25, "The operation does not apply to this provider; it is not a failure."),
    ]
}
