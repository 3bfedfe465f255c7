import EngageCore
import Foundation
import HTTPTypes

/// The request families of the Warply API over one signed sender:
///
/// | family | path | credentials |
/// |---|---|---|
/// | standard context | `POST /api/mobile/v2/{appUUID}/context/` | signed headers |
/// | authenticated context | `POST /oauth/{appUUID}/context` | signed headers + bearer token |
/// | user management, auth, analytics, device info | `/user/…`, `/oauth/…`, `/api/async/…` | signed headers |
/// | partner (Cosmote) | `/partners/…` | signed headers (+ basic auth for the Cosmote user) |
/// | session | `GET /api/session/{sessionUuid}` | signed headers |
///
/// Every answer is checked for its body status (and its section's status): anything but 1 is an
/// `EngageError` with the server's message.
struct WarplyClient: Sendable {
    let sender: WarplySender
    /// Signed headers plus `Authorization: Bearer`, renewing once after a 401.
    let bearer: APIClient
    let tokens: TokenManager
    let appUUID: String

    var signed: APIClient { sender.client }

    /// How a request is authorised.
    enum Credentials: Sendable {
        /// Signed headers only.
        case signed
        /// Signed headers and the user's bearer token (fails without a session).
        case bearer
        /// Signed headers and `Authorization: Basic`.
        case basic(WarplyConfiguration.PartnerCredentials)
    }

    // MARK: Context families

    /// Sends a context request and returns its section's `result`.
    func context<Payload: Codable & Sendable>(
        _ payload: Payload.Type, _ body: WarplyContextRequest, section: String, credentials: Credentials, operation: String,
        repeatable: Bool = true
    ) async throws -> Payload? {
        let template: WarplyWire.PathTemplate
        if case .bearer = credentials { template = .authenticatedContext } else { template = .standardContext }
        let response = try await send(
            .post, WarplyWire.path(template, appUUID: appUUID), body: .json(body), credentials: credentials, operation: operation,
            repeatable: repeatable
        ) { data in
            let response = try decode(data, as: WarplyContextResponse<Payload>.self, section: section)
            return .init(value: response, status: response.status)
        }
        try check(status: response.status, sectionStatus: response.sectionStatus, message: response.message, operation: operation)
        return response.result
    }

    /// Sends a request answered in the result form and returns its `result`.
    func result<Payload: Codable & Sendable>(
        _ payload: Payload.Type, _ method: HTTPRequest.Method, _ path: String, body: APIClient.Body = .none, credentials: Credentials,
        operation: String, repeatable: Bool = false
    ) async throws -> Payload? {
        let response = try await send(method, path, body: body, credentials: credentials, operation: operation, repeatable: repeatable) {
            let response = try decode($0, as: WarplyResultResponse<Payload>.self)
            return .init(value: response, status: response.status)
        }
        try check(status: response.status, sectionStatus: nil, message: response.message, operation: operation)
        return response.result
    }

    /// Sends a request whose answer only carries a status.
    func status(
        _ method: HTTPRequest.Method, _ path: String, body: APIClient.Body = .none, credentials: Credentials, operation: String,
        repeatable: Bool = false
    ) async throws {
        let response = try await send(method, path, body: body, credentials: credentials, operation: operation, repeatable: repeatable) {
            let response = try decode($0, as: WarplyStatusResponse.self)
            return .init(value: response, status: response.status)
        }
        try check(status: response.status ?? 0, sectionStatus: nil, message: response.message, operation: operation)
    }

    // MARK: Sending

    /// Sends and returns the 2xx body decoded by `interpret`, handling status 9.
    func send<Value>(
        _ method: HTTPRequest.Method, _ path: String, body: APIClient.Body, credentials: Credentials, operation: String, repeatable: Bool,
        interpret: (Data) throws -> WarplySender.Interpreted<Value>
    ) async throws -> Value {
        let client: APIClient
        var headers = HTTPFields()
        var authorization = RequestOptions.Authorization.ifAvailable
        switch credentials {
        case .signed:
            client = signed
        case .bearer:
            client = bearer
            authorization = .required
        case let .basic(partner):
            client = signed
            headers[.authorization] = "Basic " + Data("\(partner.username):\(partner.password)".utf8).base64EncodedString()
        }
        let options = RequestOptions(isRepeatable: repeatable, authorization: authorization, operationName: operation)
        return try await sender.send(
            using: client, { try client.makeRequest(method, path, headers: headers, body: body, options: options) }, interpret: interpret
        )
    }

    func decode<Value: Decodable>(_ data: Data, as type: Value.Type, section: String? = nil) throws -> Value {
        let decoder = JSONDecoder()
        if let section { decoder.userInfo[WarplyContextResponse<JSONValue>.sectionKey] = section }
        return try signed.decode(type, from: data, decoder: decoder)
    }

    /// Throws `.warplyRequestRejected` unless both statuses say success.
    func check(status: Int, sectionStatus: Int?, message: String?, operation: String) throws {
        guard status != WarplyWire.Status.success || (sectionStatus ?? 1) != 1 else { return }
        let shown = sectionStatus.map { status == 1 ? "section status \($0)" : "status \(status)" } ?? "status \(status)"
        let detail = message.map { ": " + Redactor().redact(text: String($0.prefix(300))) } ?? "."
        throw EngageError(.warplyRequestRejected, "Warply refused \(operation) (\(shown))\(detail)", providerID: .warply)
    }
}
