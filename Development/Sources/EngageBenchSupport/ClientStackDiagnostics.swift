@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import HTTPTypes
import Logging

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where the client stack's time goes: the same authorised GET through partial stacks, and the full
/// stack over an in-memory transport (no network) against an `APIClient` with no middleware at all.
public final class ClientStackDiagnostics: Sendable {
    public let scenario: ClientStackScenario
    let token: String

    /// Named ways of making the request; each returns the body.
    public let variants: [(name: String, fetch: @Sendable () async throws -> Data)]
    /// The in-memory pair: full stack vs no middleware, same canned 2 KB response.
    public let inMemoryFull: @Sendable () async throws -> Data
    public let inMemoryBare: @Sendable () async throws -> Data

    public init(scenario: ClientStackScenario) async throws {
        self.scenario = scenario
        let sandbox = scenario.sandbox
        guard let token = try await scenario.tokens.currentTokens()?.accessToken else { throw BenchFailure("no token") }
        self.token = token
        let bearer = BearerAuthorizer(tokens: scenario.tokens)
        let transport = URLSessionTransport(session: sandbox.session)
        let authorized: HTTPFields = [.authorization: "Bearer \(token)"]
        let query = [("size", String(ClientStackScenario.itemsSize))]
        let required = RequestOptions(authorization: .required)
        let plain = RequestOptions(authorization: .none)

        /// A client over the standard stack with only the layers named: a timeout, a log.
        func client(
            timeout: Duration? = nil, logger: Logger? = nil, authorizer: any RequestAuthorizer = NoAuthorizer(), retry: RetryPolicy = .none
        ) -> APIClient {
            APIClient(
                baseURL: sandbox.baseURL,
                transport: APIClient.standardTransport(around: transport, timeout: timeout, clock: sandbox.clock, logger: logger),
                authorizer: authorizer,
                retry: retry, clock: sandbox.clock, logger: sandbox.logger)
        }
        let noMiddleware = client()
        let authOnly = client(authorizer: bearer)
        let timeoutOnly = client(timeout: .seconds(30))
        let retryOnly = client(retry: RetryPolicy())
        let loggingOnly = client(logger: sandbox.logger)
        let request = try noMiddleware.makeRequest(.get, "/items", query: query, headers: authorized, options: plain)
        // What an app gets by default: the transport's own session (size-limiting delegate).
        let defaultTransportClient = sandbox.makeStandardClient(transport: URLSessionTransport(), authorizer: bearer)
        let full = scenario.client
        // The standard stack without its TimeoutMiddleware (URLSession's own timeout still applies).
        let withoutTimeout = client(logger: sandbox.logger, authorizer: bearer, retry: RetryPolicy())
        variants = [
            ("bare URLSession.data(for:)", { try await scenario.fetchViaURLSession() }),
            ("URLSessionTransport.send (prebuilt request)", { try await transport.send(request).body }),
            (
                "APIClient, no middleware",
                {
                    try await noMiddleware.data(.get, "/items", query: query, headers: authorized, options: plain)
                }
            ),
            (
                "APIClient + retry only",
                {
                    try await retryOnly.data(.get, "/items", query: query, headers: authorized, options: plain)
                }
            ),
            ("APIClient + authorisation only", { try await authOnly.data(.get, "/items", query: query, options: required) }),
            (
                "APIClient + timeout only",
                {
                    try await timeoutOnly.data(.get, "/items", query: query, headers: authorized, options: plain)
                }
            ),
            (
                "APIClient + logging only",
                {
                    try await loggingOnly.data(.get, "/items", query: query, headers: authorized, options: plain)
                }
            ),
            ("full stack (shared session)", { try await full.data(.get, "/items", query: query, options: required) }),
            (
                "full stack without TimeoutMiddleware",
                {
                    try await withoutTimeout.data(.get, "/items", query: query, options: required)
                }
            ),
            (
                "full stack, URLSessionTransport() own session",
                {
                    try await defaultTransportClient.data(.get, "/items", query: query, options: required)
                }
            ),
        ]

        // In memory: the body the network would return, without the network.
        let body = try await scenario.fetchViaURLSession()
        let canned = CannedTransport(body: body)
        let memoryFull = sandbox.makeStandardClient(transport: canned, authorizer: bearer)
        let memoryBare = APIClient(baseURL: sandbox.baseURL, transport: canned)
        inMemoryFull = { try await memoryFull.data(.get, "/items", query: query, options: required) }
        inMemoryBare = { try await memoryBare.data(.get, "/items", query: query, headers: authorized, options: plain) }
    }
}

/// Answers every request with 200 and a fixed body.
struct CannedTransport: HTTPTransport {
    let body: Data

    func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
        HTTPResponseMessage(head: HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), body: body)
    }
}
