@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import HTTPTypes
import ReferenceEmulator

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Benchmark 1: an authorised `GET /items?size=2048` through the full client stack versus the same
/// request with a bare `URLSession.data(for:)`, both on one session against one sandbox.
public final class ClientStackScenario: Sendable {
    /// The approximate size of the items document.
    public static let itemsSize = 2048

    public let sandbox: BenchSandbox
    /// The token manager behind the client's `BearerAuthorizer`; it holds a valid token throughout.
    @_spi(EngageProvider) public let tokens: TokenManager
    /// `APIClient` as providers get one: `BenchSandbox.makeClient(authorizer: BearerAuthorizer(...))`.
    @_spi(EngageProvider) public let client: APIClient
    /// The same stack on the transport's own session (`URLSessionTransport()`), as apps get it.
    @_spi(EngageProvider) public let ownSessionClient: APIClient
    /// The bare request: same URL, same `Authorization` and `Accept` headers, same timeout.
    public let bareRequest: URLRequest

    private init(sandbox: BenchSandbox, tokens: TokenManager, client: APIClient, ownSessionClient: APIClient, bareRequest: URLRequest) {
        self.sandbox = sandbox
        self.tokens = tokens
        self.client = client
        self.ownSessionClient = ownSessionClient
        self.bareRequest = bareRequest
    }

    /// Starts a sandbox, logs in, and checks that both paths return the same document.
    public static func start() async throws -> ClientStackScenario {
        let sandbox = try await BenchSandbox.start()
        do {
            let tokens = sandbox.makeTokenManager(refreshClient: sandbox.makeClient())
            let pair = try await sandbox.logIn()
            try await tokens.setTokens(pair)
            let client = sandbox.makeClient(authorizer: BearerAuthorizer(tokens: tokens))

            guard var components = URLComponents(url: sandbox.baseURL.appendingPathComponent("items"), resolvingAgainstBaseURL: false)
            else { throw BenchFailure("Bad base URL \(sandbox.baseURL)") }
            components.queryItems = [URLQueryItem(name: "size", value: String(itemsSize))]
            guard let url = components.url else { throw BenchFailure("Bad items URL") }
            var request = URLRequest(url: url)
            request.httpMethod = "GET"
            request.setValue("Bearer \(pair.accessToken)", forHTTPHeaderField: "Authorization")
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            request.timeoutInterval = 30

            let ownSessionClient = sandbox.makeOwnSessionClient(authorizer: BearerAuthorizer(tokens: tokens))
            let scenario = ClientStackScenario(
                sandbox: sandbox, tokens: tokens, client: client, ownSessionClient: ownSessionClient, bareRequest: request
            )
            let viaStack = try await scenario.fetchViaStack()
            let viaOwnSession = try await scenario.fetchViaStackOnOwnSession()
            let viaSession = try await scenario.fetchViaURLSession()
            guard viaStack == viaSession, viaOwnSession == viaSession, viaStack.count > itemsSize / 2 else {
                throw BenchFailure(
                    "The stack and the bare session returned different documents (\(viaStack.count) vs \(viaSession.count) bytes).")
            }
            return scenario
        } catch {
            await sandbox.stop()
            throw error
        }
    }

    /// A: the full client stack.
    public func fetchViaStack() async throws -> Data {
        try await client.data(
            .get, "/items", query: [("size", String(Self.itemsSize))], options: RequestOptions(authorization: .required)
        )
    }

    /// A': the full client stack on the transport's own session.
    public func fetchViaStackOnOwnSession() async throws -> Data {
        try await ownSessionClient.data(
            .get, "/items", query: [("size", String(Self.itemsSize))], options: RequestOptions(authorization: .required)
        )
    }

    /// B: bare `URLSession.data(for:)` with the same headers.
    public func fetchViaURLSession() async throws -> Data {
        let (data, response) = try await sandbox.session.data(for: bareRequest)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw BenchFailure("Bare GET /items answered \((response as? HTTPURLResponse)?.statusCode ?? -1)")
        }
        return data
    }

    /// Fails if the token was refreshed (the comparison assumes a valid token throughout): the emulator
    /// counts the refreshes it served.
    public func verifyNoRefresh() async throws {
        let refreshes = sandbox.emulator.refreshCount
        guard refreshes == 0 else {
            throw BenchFailure("The token was refreshed \(refreshes) time(s) during the client-stack benchmark.")
        }
    }

    public func stop() async {
        await sandbox.stop()
    }
}
