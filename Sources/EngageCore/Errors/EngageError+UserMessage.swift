import Foundation

extension EngageError {
    /// What a user may be told about a failure: one short sentence per kind of failure, free of
    /// technical detail, read from the `EngageErrors` strings table of EngageCore's resources in the
    /// app's language (English, German and Greek ship with the SDK; English otherwise). It is the
    /// error's `localizedDescription`.
    ///
    /// The kind comes from the error's code; a provider's own code (one the core does not know) reads
    /// as `.unavailable` when it is retryable or the server failed (HTTP 5xx), and as `.general`
    /// otherwise.
    package enum UserMessage: String, CaseIterable, Sendable {
        /// The device could not reach the service.
        case offline = "error.offline"
        /// The service took too long to answer.
        case timeout = "error.timeout"
        /// The user's session ended, or their credentials were refused.
        case signInAgain = "error.signInAgain"
        /// What the user entered was refused before it was sent.
        case invalidInput = "error.invalidInput"
        /// The service asked the app to slow down, or calls to it are paused after repeated failures.
        case busy = "error.busy"
        /// The service failed, or cannot be used right now.
        case unavailable = "error.unavailable"
        /// The service answered with something the app cannot read.
        case unreadableAnswer = "error.unreadableAnswer"
        /// The device's storage failed.
        case storage = "error.storage"
        /// The operation was cancelled.
        case cancelled = "error.cancelled"
        /// Anything else (a developer's mistake, an internal failure).
        case general = "error.general"

        /// The English text: the table's, and what is shown when the table cannot be read.
        package var english: String {
            switch self {
            case .offline: "You appear to be offline. Check your connection and try again."
            case .timeout: "The service took too long to answer. Please try again."
            case .signInAgain: "Your session has ended. Please sign in again."
            case .invalidInput: "Some of the details aren't valid. Please check them and try again."
            case .busy: "The service is busy right now. Please try again in a moment."
            case .unavailable: "The service isn't available right now. Please try again later."
            case .unreadableAnswer: "The service sent an answer that couldn't be read. Please try again later."
            case .storage: "The app couldn't read or save its data on this device."
            case .cancelled: "The request was cancelled."
            case .general: "Something went wrong. Please try again later."
            }
        }

        /// The text in the app's language: the table's entry for it, else English.
        package var localized: String {
            guard let bundle = Self.bundle else { return english }
            return bundle.localizedString(forKey: rawValue, value: english, table: Self.table)
        }

        /// The strings table's name.
        static let table = "EngageErrors"

        /// EngageCore's resource bundle. On Linux it is looked up beside the executable, as SwiftPM's
        /// accessor does, without the accessor's trap when it is missing (a binary copied without it
        /// shows English).
        package static let bundle: Bundle? = {
            #if canImport(Darwin)
                return Bundle.module
            #else
                return Bundle(url: Bundle.main.bundleURL.appendingPathComponent("EngageKit_EngageCore.resources"))
                    ?? Bundle.allBundles.first { $0.bundleURL.lastPathComponent == "EngageKit_EngageCore.resources" }
            #endif
        }()
    }

    /// The kind of failure a user is told about.
    package var userMessage: UserMessage {
        switch code {
        case .network: return .offline
        case .timeout: return .timeout
        case .unauthorized, .sessionExpired: return .signInAgain
        case .invalidInput: return .invalidInput
        case .circuitOpen, .queueFull: return .busy
        case .decoding, .graphQL, .responseTooLarge, .redirectRefused: return .unreadableAnswer
        case .storage, .crypto: return .storage
        case .cancelled: return .cancelled
        case .httpStatus:
            guard let httpStatus else { return .general }
            if httpStatus == 429 || httpStatus == 503 { return .busy }
            return httpStatus >= 500 ? .unavailable : .general
        case .providerStartFailed, .unsupported, .notApplicable, .providerNotFound: return .unavailable
        default:
            // The core's other codes are developers' mistakes; a provider's own code says what it can.
            if Self.Code.coreTable[code.rawValue] != nil { return .general }
            return isRetryable || (httpStatus ?? 0) >= 500 ? .unavailable : .general
        }
    }
}
