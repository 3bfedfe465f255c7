#if PiggyCards
    import EngageCore
    import Foundation
    import HTTPTypes

    /// Which PiggyCards call failed.
    enum PiggyCardsOperation: String, Sendable {
        case signUp = "sign up"
        case verifyOTP = "verify the one-time password"
        case logIn = "log in"
        case catalogue = "read the catalogue"
        case exchangeRate = "read the exchange rate"
        case order = "place the order"
        case orderStatus = "read the order"
    }

    /// Turns PiggyCards' failures into `EngageError`s: a 500 whose message says "out of stock" is
    /// `.exploreGiftCardOutOfStock` (not retryable); other 5xx are retryable `.exploreGiftCardServer`;
    /// 400 is an invalid code (verify-otp) or amount (orders); 401 `.unauthorized`; the rest `.httpStatus`.
    enum PiggyCardsErrorMapping {
        static func error(status: Int, body: Data, operation: PiggyCardsOperation) -> EngageError {
            let decoded = try? JSONDecoder().decode(PiggyCardsWire.ErrorBody.self, from: body)
            let serverText = decoded?.message.map { Redactor().redact(text: String($0.prefix(300))) }
            let message = "PiggyCards could not \(operation.rawValue) (HTTP \(status))" + (serverText.map { ": \($0)" } ?? ".")
            if serverText?.lowercased().contains("out of stock") == true {
                return EngageError(
                    .exploreGiftCardOutOfStock, message, providerID: .explore, httpStatus: status,
                    recoverySuggestion: "Choose another card or amount, or try again later."
                )
            }
            let code: EngageError.Code
            switch status {
            case 400: code = operation == .verifyOTP ? .exploreGiftCardCodeInvalid : operation == .order ? .exploreGiftCardAmountInvalid : .invalidInput
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

    /// Sends one PiggyCards request and decodes its 2xx answer; other statuses become mapped errors.
    struct PiggyCardsSender: Sendable {
        let client: APIClient

        func send<Answer: Decodable>(
            _ type: Answer.Type, _ method: HTTPRequest.Method, _ path: String, query: [(String, String?)] = [],
            body: APIClient.Body = .none, operation: PiggyCardsOperation, options: RequestOptions
        ) async throws -> Answer {
            let request = try client.makeRequest(method, path, query: query, body: body, options: options)
            let response = try await client.send(request)
            guard response.isSuccess else { throw PiggyCardsErrorMapping.error(status: response.status, body: response.body, operation: operation) }
            return try client.decode(type, from: response.body)
        }

        /// The payload of a `{code, message, data}` answer; a body `code` other than 2xx is a failure.
        func payload<Payload: Codable & Sendable>(
            _ type: Payload.Type, _ path: String, query: [(String, String?)] = [], operation: PiggyCardsOperation, options: RequestOptions
        ) async throws -> Payload {
            let envelope = try await send(PiggyCardsWire.Envelope<Payload>.self, .get, path, query: query, operation: operation, options: options)
            if let code = envelope.code, !(200...299).contains(code) {
                let body = (try? JSONEncoder().encode(PiggyCardsWire.ErrorBody(code: code, message: envelope.message))) ?? Data()
                throw PiggyCardsErrorMapping.error(status: code, body: body, operation: operation)
            }
            guard let data = envelope.data else {
                throw EngageError(.exploreGiftCardUnexpectedAnswer, "PiggyCards answered without data when asked to \(operation.rawValue).", providerID: .explore)
            }
            return data
        }
    }
#endif
