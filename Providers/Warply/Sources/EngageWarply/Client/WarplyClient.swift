@_spi(EngageProvider) import EngageCore
import Foundation
import HTTPTypes

/// The request families of the Warply API over the signed clients:
///
/// | family | path | credentials |
/// |---|---|---|
/// | standard context | `POST /api/mobile/v2/{appUUID}/context/` | signed headers |
/// | authenticated context | `POST /oauth/{appUUID}/context` | signed headers + bearer token |
/// | user management, auth, analytics, device info | `/user/…`, `/oauth/…`, `/api/async/…` | signed headers |
/// | partner (Cosmote) | `/partners/…` | signed headers + basic auth (`partnerCredentials`) |
/// | session | `GET /api/session/{sessionUuid}` | signed headers |
///
/// Every signed client judges its answers with ``WarplyAnswerRules/policy(signing:)``, which refuses any
/// body or section status but 1 (and a context or status answer without one) and has the signer renew
/// the registration after status 9. This type only chooses the client and the answer's form.
struct WarplyClient: Sendable {
    /// Signed headers.
    let signed: APIClient
    /// Signed headers plus `Authorization: Bearer`, renewing once after a 401.
    let bearer: APIClient
    /// Signed headers plus `Authorization: Basic` with the partner credentials, when configured.
    let partner: APIClient?
    let appUUID: String
    let networkStatus: WarplyNetworkStatusTracker

    /// How a request is authorised.
    enum Credentials: Sendable {
        /// Signed headers only.
        case signed
        /// Signed headers and the user's bearer token (fails without a session).
        case bearer
        /// Signed headers and `Authorization: Basic` with the configured partner credentials.
        case partner
    }

    // MARK: Families

    /// Sends a context request and returns its section's `result`.
    func context<Payload: Codable & Sendable>(
        _ payload: Payload.Type, _ body: WarplyContextRequest, section: String, credentials: Credentials,
        operation: WarplyOperation? = nil
    ) async throws -> Payload? {
        let template: WarplyWire.PathTemplate
        if case .bearer = credentials { template = .authenticatedContext } else { template = .standardContext }
        return try await send(
            WarplyContextResponse<Payload>.self, .post, WarplyWire.path(template, appUUID: appUUID), body: .json(body), section: section,
            credentials: credentials, operation: operation
        ).result
    }

    /// Sends a request answered in the result form and returns its `result`.
    func result<Payload: Codable & Sendable>(
        _ payload: Payload.Type, _ method: HTTPRequest.Method, _ path: String, body: APIClient.Body = .none, credentials: Credentials,
        operation: WarplyOperation? = nil
    ) async throws -> Payload? {
        try await send(WarplyResultResponse<Payload>.self, method, path, body: body, credentials: credentials, operation: operation).result
    }

    /// Sends a request whose answer only carries a status.
    func status(
        _ method: HTTPRequest.Method, _ path: String, body: APIClient.Body = .none, credentials: Credentials,
        operation: WarplyOperation? = nil
    ) async throws {
        _ = try await send(WarplyStatusResponse.self, method, path, body: body, credentials: credentials, operation: operation)
    }

    // MARK: Sending

    /// Sends one call through the client `credentials` choose and decodes its 2xx answer as `type`
    /// (a context answer with its `section`), recording whether the network answered.
    func send<Value: Decodable & Sendable>(
        _ type: Value.Type, _ method: HTTPRequest.Method, _ path: String, body: APIClient.Body, section: String? = nil,
        credentials: Credentials, operation: WarplyOperation?
    ) async throws(EngageError) -> Value {
        let client: APIClient
        var authorization = RequestOptions.Authorization.ifAvailable
        switch credentials {
        case .signed:
            client = signed
        case .bearer:
            client = bearer
            authorization = .required
        case .partner:
            guard let partner else {
                throw EngageError(
                    .invalidConfiguration, "Warply's partner calls (\(Self.name(of: operation))) need partnerCredentials.",
                    providerID: .warply,
                    recoverySuggestion: "Set WarplyConfiguration.partnerCredentials to the credentials Warply gave you."
                )
            }
            client = partner
        }
        let decoder = JSONDecoder()
        if let section { decoder.userInfo[WarplyContextResponse<JSONValue>.sectionKey] = section }
        do {
            let value = try await client.json(
                type, method, path, body: body,
                options: RequestOptions(authorization: authorization, operation: operation), decoder: decoder
            )
            networkStatus.record(.connected)
            return value
        } catch {
            networkStatus.record(error.code == .network || error.code == .timeout ? .disconnected : .connected)
            throw error
        }
    }

    /// The name of the operation a call belongs to: `operation` when it names itself, else the one it
    /// runs inside.
    static func name(of operation: WarplyOperation?) -> String {
        (operation?.name ?? CurrentOperation.value?.name)?.rawValue ?? "the request"
    }
}
