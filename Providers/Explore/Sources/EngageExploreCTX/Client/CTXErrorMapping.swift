@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExploreGiftCards
import Foundation
import HTTPTypes

extension CTXWire.TokenAnswer {
    /// The pair in this answer to `operation`; a 2xx without both tokens is a failure.
    func tokenPair(for operation: CTXOperation) throws(EngageError) -> TokenPair {
        guard let access = accessToken, !access.isEmpty, let refresh = refreshToken, !refresh.isEmpty else {
            throw EngageError(
                .exploreGiftCardUnexpectedAnswer, "CTX answered without tokens when asked to \(operation.summary).", providerID: .explore,
                recoverySuggestion: "Request a new code and try again."
            )
        }
        return TokenPair(accessToken: access, refreshToken: refresh)
    }
}

/// Which CTX call a request is. Its raw value is the call's one name: the operation's event
/// (`custom_success_<name>_explore`) and the request's `RequestOptions.operation` (logs, and how the error
/// mapping hook knows what a 400 means).
enum CTXOperation: String, ProviderOperation {
    case requestCode = "ctx_request_code"
    case verify = "ctx_verify"
    case signOut = "ctx_sign_out"
    case refresh = "ctx_refresh_token"
    case merchant = "ctx_merchant"
    case purchase = "ctx_buy_gift_card"
    case giftCard = "ctx_gift_card"
    case waitForGiftCard = "ctx_wait_for_gift_card"
    case giftCardsByTransaction = "ctx_gift_cards_by_txid"

    /// What the call does, for messages.
    var summary: String {
        switch self {
        case .requestCode: "request a login code"
        case .verify: "verify the e-mail code"
        case .signOut: "sign out"
        case .refresh: "refresh the session"
        case .merchant: "read the merchant"
        case .purchase: "buy the gift card"
        case .giftCard, .waitForGiftCard, .giftCardsByTransaction: "read the gift card"
        }
    }

    /// The request options of this call.
    func options(authorization: RequestOptions.Authorization, allowsRetry: Bool = true) -> RequestOptions {
        RequestOptions(allowsRetry: allowsRetry, authorization: authorization, operation: self)
    }

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
    /// The CTX clients' response policy: a non-2xx answer to a CTX call is mapped per call; a 401 is a
    /// refused access token first (renewed once, else mapped).
    static let policy = ResponsePolicy { answer in
        guard !answer.response.isSuccess, let operation = answer.request.options.operation as? CTXOperation else { return .accept }
        let error = error(for: answer.response, operation: operation, redactor: answer.redactor)
        return answer.response.status == 401 ? .credentialRejected(error, credential: .accessToken) : .fail(error)
    }

    static func error(for response: HTTPResponseMessage, operation: CTXOperation, redactor: Redactor) -> EngageError {
        let status = response.status
        let body = try? JSONDecoder().decode(CTXWire.ErrorBody.self, from: response.body)
        let serverText = body?.summary.map { redactor.redact(text: String($0.prefix(300))) }
        let detail = serverText.map { ": \($0)" } ?? "."
        let message = "CTX could not \(operation.summary) (HTTP \(status))\(detail)"
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
