@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExploreGiftCards
import Foundation
import HTTPTypes

/// The PiggyCards operations, declared once: each raw value is the name its operation event and its
/// requests carry (`custom_<outcome>_<name>_explore`, and the request's `RequestOptions.operation`), which
/// is also how the error mapping hook knows what a 400 means. Facade operations that send several
/// requests (verify: the code, then the login) name them by their own cases.
enum PiggyCardsOperation: String, ProviderOperation {
    case signUp = "piggycards_sign_up"
    case verify = "piggycards_verify"
    case verifyOTP = "piggycards_verify_otp"
    case logIn = "piggycards_login"
    case signOut = "piggycards_sign_out"
    case brands = "piggycards_brands"
    case giftCards = "piggycards_gift_cards"
    case exchangeRate = "piggycards_exchange_rate"
    case order = "piggycards_order"
    case orderStatus = "piggycards_order_status"
    case waitForOrder = "piggycards_wait_for_order"

    /// What the call does, for messages.
    var summary: String {
        switch self {
        case .signUp: "sign up"
        case .verify, .verifyOTP: "verify the one-time password"
        case .logIn: "log in"
        case .signOut: "sign out"
        case .brands, .giftCards: "read the catalogue"
        case .exchangeRate: "read the exchange rate"
        case .order: "place the order"
        case .orderStatus, .waitForOrder: "read the order"
        }
    }

    /// The request options of this call.
    func options(authorization: RequestOptions.Authorization, allowsRetry: Bool = true) -> RequestOptions {
        RequestOptions(allowsRetry: allowsRetry, authorization: authorization, operation: self)
    }
}

/// Turns PiggyCards' failures into `EngageError`s: a 500 whose message says "out of stock" is
/// `.exploreGiftCardOutOfStock` (not retryable); other 5xx are retryable `.exploreGiftCardServer`;
/// 400 is an invalid code (verify-otp) or amount (orders); 401 `.unauthorized`; the rest `.httpStatus`.
enum PiggyCardsErrorMapping {
    static func error(status: Int, body: Data, operation: PiggyCardsOperation?, redactor: Redactor) -> EngageError {
        let decoded = try? JSONDecoder().decode(PiggyCardsWire.ErrorBody.self, from: body)
        let serverText = decoded?.message.map { redactor.redact(text: String($0.prefix(300))) }
        let message = "PiggyCards could not \(operation?.summary ?? "answer") (HTTP \(status))" + (serverText.map { ": \($0)" } ?? ".")
        if serverText?.lowercased().contains("out of stock") == true {
            return EngageError(
                .exploreGiftCardOutOfStock, message, providerID: .explore, httpStatus: status,
                recoverySuggestion: "Choose another card or amount, or try again later."
            )
        }
        let code: EngageError.Code
        switch status {
        case 400:
            code =
                operation == .verifyOTP ? .exploreGiftCardCodeInvalid : operation == .order ? .exploreGiftCardAmountInvalid : .invalidInput
        case 401: code = operation == .verifyOTP ? .exploreGiftCardCodeInvalid : .unauthorized
        case 500...599: code = .exploreGiftCardServer
        default: code = .httpStatus
        }
        return EngageError(
            code, message, providerID: .explore, httpStatus: status, isRetryable: EngageError.isRetryable(httpStatus: status),
            recoverySuggestion: (500...599).contains(status) ? "Try again later." : nil
        )
    }
}

extension PiggyCardsErrorMapping {
    /// The PiggyCards clients' response policy: a 2xx body whose `code` is not 2xx is a failure
    /// (catalogue answers repeat the status in their `{code, message, data}` envelope), every non-2xx
    /// answer is mapped per call, and a 401 is a refused access token (renewed once, else mapped).
    ///
    /// An answer is parsed once: the code is read from the envelope the call decoded
    /// (`ResponsePolicy.Answer.value`); an answer decoded as a type without one (login, orders) has
    /// none; only a body that did not decode as the call expected is parsed here, for its refusal.
    static let policy = ResponsePolicy { answer in
        let response = answer.response
        let operation = answer.request.options.operation as? PiggyCardsOperation
        guard response.isSuccess else {
            let error = error(status: response.status, body: response.body, operation: operation, redactor: answer.redactor)
            return response.status == 401 ? .credentialRejected(error, credential: .accessToken) : .fail(error)
        }
        guard let code = bodyCode(of: answer), !(200...299).contains(code) else { return .accept }
        return .fail(error(status: code, body: response.body, operation: operation, redactor: answer.redactor))
    }

    /// The status code a 2xx answer repeats in its body, if any.
    static func bodyCode(of answer: ResponsePolicy.Answer) -> Int? {
        if let envelope = answer.value as? any PiggyCardsCodeCarrying { return envelope.bodyCode }
        if answer.value != nil { return nil }
        return (try? JSONDecoder().decode(PiggyCardsWire.ErrorBody.self, from: answer.response.body))?.code
    }
}

extension APIClient {
    /// The payload of a PiggyCards `{code, message, data}` answer (its `code` was checked by the
    /// response policy); an answer without `data` is a failure.
    func piggyCardsPayload<Payload: Decodable & Sendable>(
        _ type: Payload.Type, _ path: String, query: [(String, String?)] = [], operation: PiggyCardsOperation
    ) async throws(EngageError) -> Payload {
        let envelope = try await json(
            PiggyCardsWire.Envelope<Payload>.self, .get, path, query: query, options: operation.options(authorization: .required)
        )
        guard let data = envelope.data else {
            throw EngageError(
                .exploreGiftCardUnexpectedAnswer, "PiggyCards answered without data when asked to \(operation.summary).",
                providerID: .explore)
        }
        return data
    }
}

/// A decoded PiggyCards answer that repeats its status code in the body, read by the classifier from
/// the value the call decoded.
protocol PiggyCardsCodeCarrying: Sendable {
    /// The body's `code`, when it sent one.
    var bodyCode: Int? { get }
}

extension PiggyCardsWire.Envelope: PiggyCardsCodeCarrying {
    var bodyCode: Int? { code }
}
