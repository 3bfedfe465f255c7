@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) import EngageTesting
import Foundation
import HTTPTypes
import Logging
import ReferenceEmulator

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The sandbox host serving the reference emulator on 127.0.0.1 (ephemeral port), on an `OffsetClock`
/// that the clients share, plus the URLSession every client and baseline of a scenario uses.
public final class BenchSandbox: Sendable {
    /// Access tokens live this long (on the shared clock).
    public static let tokenLifetime: Duration = .seconds(3600)
    /// `/auth/token` accepts this password.
    public static let password = "secret"

    /// The clock the sandbox (token issue and verification) and every client of the scenario read.
    @_spi(EngageProvider) public let clock: OffsetClock
    public let emulator: ReferenceEmulator
    public let host: SandboxHost
    /// `http://127.0.0.1:<port>/reference`.
    public let baseURL: URL
    /// One session for the client stack and the bare baselines, so that comparisons measure the stack,
    /// not the session's setup or connection pool.
    public let session: URLSession
    /// Quiet: benchmarks must not pay for log formatting.
    public let logger: Logger

    private init(
        clock: OffsetClock, emulator: ReferenceEmulator, host: SandboxHost, baseURL: URL, session: URLSession, logger: Logger
    ) {
        self.clock = clock
        self.emulator = emulator
        self.host = host
        self.baseURL = baseURL
        self.session = session
        self.logger = logger
    }

    /// Starts the host. `maxConnectionsPerHost` matches `URLSessionTransport`'s default session.
    public static func start(maxConnectionsPerHost: Int = 16) async throws -> BenchSandbox {
        let clock = OffsetClock()
        let emulator = ReferenceEmulator(configuration: .init(password: password, accessTokenLifetime: tokenLifetime))
        var sandboxLogger = Logger(label: "engage.bench.sandbox")
        sandboxLogger.logLevel = .error
        let host = SandboxHost(
            emulators: [emulator],
            configuration: SandboxConfiguration(
                now: { clock.now }, tokenLifetime: tokenLifetime, journalCapacity: 2_000,
                shutdownGracePeriod: .seconds(1), logger: sandboxLogger
            )
        )
        let endpoints = try await host.start()
        guard let baseURL = endpoints.baseURL(for: emulator.id) else {
            await host.stop()
            throw BenchFailure("The sandbox does not serve the reference emulator.")
        }
        var logger = Logger(label: "engage.bench")
        logger.logLevel = .warning
        return BenchSandbox(
            clock: clock, emulator: emulator, host: host, baseURL: baseURL,
            session: makeSession(maxConnectionsPerHost: maxConnectionsPerHost), logger: logger
        )
    }

    /// The same configuration `URLSessionTransport` uses when it makes its own session.
    public static func makeSession(maxConnectionsPerHost: Int = 16) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpMaximumConnectionsPerHost = maxConnectionsPerHost
        return URLSession(configuration: configuration)
    }

    /// Stops the host and invalidates the session.
    public func stop() async {
        session.finishTasksAndInvalidate()
        await host.stop()
    }

    // MARK: - Clients

    /// A client as providers get one (retries and authorisation in the client's loop, then timeout →
    /// logging → URLSession).
    @_spi(EngageProvider) public func makeClient(authorizer: any RequestAuthorizer = NoAuthorizer()) -> APIClient {
        makeStandardClient(transport: URLSessionTransport(session: session), authorizer: authorizer)
    }

    /// A client as providers get one over `transport`.
    @_spi(EngageProvider) public func makeStandardClient(transport: any HTTPTransport, authorizer: any RequestAuthorizer) -> APIClient {
        APIClient(
            baseURL: baseURL, transport: APIClient.standardTransport(around: transport, clock: clock, logger: logger),
            providerID: "reference",
            authorizer: authorizer, retry: RetryPolicy(), clock: clock, logger: logger)
    }

    /// A client over the same stack on the transport's own session, as apps get it: `URLSessionTransport()`
    /// makes its session with the size-limiting, stall-watching, redirect-ruling delegate.
    @_spi(EngageProvider) public func makeOwnSessionClient(authorizer: any RequestAuthorizer = NoAuthorizer()) -> APIClient {
        makeStandardClient(transport: URLSessionTransport(), authorizer: authorizer)
    }

    /// A token manager on the shared clock whose refresher calls `POST /auth/refresh` through `client`
    /// (an unauthorised client of the same stack, as providers do).
    @_spi(EngageProvider) public func makeTokenManager(refreshClient: APIClient) -> TokenManager {
        TokenManager(
            providerID: "reference",
            refresher: ClosureTokenRefresher { tokens in
                try await refreshClient.json(
                    TokenAnswer.self, .post, "/auth/refresh", body: .json(["refresh_token": tokens.refreshToken ?? ""]),
                    options: RequestOptions(allowsRetry: false, authorization: .none)
                ).pair
            },
            clock: clock,
            logger: logger
        )
    }

    /// Logs in (`POST /auth/token`) with a bare request and returns the token pair.
    @_spi(EngageProvider) public func logIn(username: String = "bench") async throws -> TokenPair {
        var request = URLRequest(url: baseURL.appendingPathComponent("auth/token"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(["username": username, "password": Self.password])
        let (data, response) = try await session.data(for: request)
        guard let status = (response as? HTTPURLResponse)?.statusCode, status == 200 else {
            throw BenchFailure("POST /auth/token failed: \(String(decoding: data, as: UTF8.self))")
        }
        return try JSONDecoder().decode(TokenAnswer.self, from: data).pair
    }
}

/// The answer of `/auth/token` and `/auth/refresh`.
struct TokenAnswer: Decodable {
    var accessToken: String
    var refreshToken: String
    var pair: TokenPair { TokenPair(accessToken: accessToken, refreshToken: refreshToken) }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
    }
}
