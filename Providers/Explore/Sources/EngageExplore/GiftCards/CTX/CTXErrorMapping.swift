import EngageCore
import Foundation
import HTTPTypes

/// Which CTX call failed, for messages and for what a 400 means.
enum CTXOperation: String, Sendable {
    case requestCode = "request a login code"
    case verify = "verify the e-mail code"
    case refresh = "refresh the session"
    case merchant = "read the merchant"
    case purchase = "buy the gift card"
    case giftCard = "read the gift card"

    /// What a 400 answer to this call means.
    var badRequestCode: EngageError.Code {
        switch self {
        case .verify: .exploreGiftCardCodeInvalid
        case .purchase: .exploreGiftCardAmountInvalid
        default: .invalidInput
        }
    }
}

/// Turns CTX's non-2xx answers into `EngageError`s: 400 invalid code (verification) or amount
/// (purchase), 401 unauthorized, 409 rejected, 422 invalid amount, 5xx server (retryable). The
/// server's messages (`errors[].message` and `fields`) are kept, redacted, in the message.
enum CTXErrorMapping {
    static func error(for response: HTTPResponseMessage, operation: CTXOperation) -> EngageError {
        let status = response.status
        let body = try? JSONDecoder().decode(CTXWire.ErrorBody.self, from: response.body)
        let serverText = body?.summary.map { Redactor().redact(text: String($0.prefix(300))) }
        let detail = serverText.map { ": \($0)" } ?? "."
        let message = "CTX could not \(operation.rawValue) (HTTP \(status))\(detail)"
        let code: EngageError.Code
        var suggestion: String?
        switch status {
        case 400:
            code = operation.badRequestCode
            suggestion = operation == .verify ? "Ask the user to check the code, or request a new one." : nil
        case 401:
            code = operation == .verify ? .exploreGiftCardCodeInvalid : .unauthorized
            suggestion = operation == .verify ? "Ask the user to check the code." : "Sign in to CTX again."
        case 409:
            code = .exploreGiftCardRejected
            suggestion = "CTX refused this purchase; choose another merchant or amount."
        case 422:
            code = .exploreGiftCardAmountInvalid
            suggestion = "Choose an amount the merchant accepts."
        case 500...599:
            code = .exploreGiftCardServer
            suggestion = "Try again later."
        default:
            code = .httpStatus
        }
        return EngageError(
            code, message, providerID: .explore, httpStatus: status, isRetryable: EngageError.isRetryable(httpStatus: status),
            recoverySuggestion: suggestion, underlyingError: body.map(CTXServerError.init)
        )
    }
}

/// CTX's error body, as the `underlyingError` of a mapped failure (messages per field included).
public struct CTXServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The general messages.
    public var messages: [String]
    /// Messages per request field, e.g. `["fiatAmount": ["above threshold"]]`.
    public var fields: [String: [String]]

    init(_ body: CTXWire.ErrorBody) {
        messages = (body.errors ?? []).compactMap(\.message)
        fields = body.fields ?? [:]
    }

    /// The messages, redacted.
    public var description: String {
        Redactor().redact(text: CTXWire.ErrorBody(errors: messages.map { .init(message: $0) }, fields: fields).summary ?? "no message")
    }
}
