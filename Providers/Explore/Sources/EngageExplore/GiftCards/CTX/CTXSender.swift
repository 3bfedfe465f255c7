import EngageCore
import Foundation
import HTTPTypes

/// Sends one CTX request and decodes its 2xx answer; other statuses become mapped errors.
struct CTXSender: Sendable {
    let client: APIClient

    func send<Answer: Decodable>(
        _ type: Answer.Type, _ method: HTTPRequest.Method, _ path: String, query: [(String, String?)] = [], body: APIClient.Body = .none,
        operation: CTXOperation, options: RequestOptions
    ) async throws -> Answer {
        let data = try await sendExpectingSuccess(method, path, query: query, body: body, operation: operation, options: options)
        return try client.decode(type, from: data)
    }

    func sendExpectingSuccess(
        _ method: HTTPRequest.Method, _ path: String, query: [(String, String?)] = [], body: APIClient.Body = .none,
        operation: CTXOperation, options: RequestOptions
    ) async throws -> Data {
        let request = try client.makeRequest(method, path, query: query, body: body, options: options)
        let response = try await client.send(request)
        guard response.isSuccess else { throw CTXErrorMapping.error(for: response, operation: operation) }
        return response.body
    }

    /// The pair in `answer`; a 2xx without both tokens is a failure.
    static func tokenPair(from answer: CTXWire.TokenAnswer, operation: CTXOperation) throws -> TokenPair {
        guard let access = answer.accessToken, !access.isEmpty, let refresh = answer.refreshToken, !refresh.isEmpty else {
            throw EngageError(
                .exploreGiftCardUnexpectedAnswer, "CTX answered without tokens when asked to \(operation.rawValue).", providerID: .explore,
                recoverySuggestion: "Request a new code and try again."
            )
        }
        return TokenPair(accessToken: access, refreshToken: refresh)
    }
}
