@_spi(EngageProvider) import EngageSandbox
import Hummingbird
@_spi(EngageProvider) import EngageCore

/// A small, generic, stateful backend: token auth with rotating refresh tokens, a sized item list,
/// an idempotent event sink, an echo endpoint and a GraphQL-shaped endpoint.
///
/// EngageCore's end-to-end tests and the benchmarks use it before (and besides) the real provider
/// emulators. Routes, relative to `http://127.0.0.1:<port>/reference`:
///
/// | route | behaviour |
/// |---|---|
/// | `POST /auth/token` `{"username","password"}` | `{"access_token","refresh_token","expires_in"}`; wrong password: 401 `{"error":"invalid_grant"}` |
/// | `POST /auth/refresh` `{"refresh_token"}` | a new pair; the old refresh token is then rejected (400 `invalid_grant`), after `refreshTokenReuseInterval` when one is set |
/// | `GET /items?size=N` | bearer JWT required (else 401 + `WWW-Authenticate: Bearer`); about N bytes of JSON |
/// | `GET /public/items?size=N` | the same without auth |
/// | `POST /events` `{"events":[{"id","name","payload"}]}` | stores events, deduplicated by `id` |
/// | `GET /events` | the stored events |
/// | `/echo` (any method) | echoes method, path, query, headers and body |
/// | `POST /graphql` | `errors` when the query contains `fail`, else `{"data":{"echo":{"variables":…}}}` |
///
/// Everything is deterministic given the host's seed and clock.
public final class ReferenceEmulator: Emulator {
    /// What the reference backend accepts and produces.
    public struct Configuration: Sendable {
        /// The password `/auth/token` accepts (for any username).
        public var password: String
        /// The access token lifetime; the host's ``SandboxConfiguration/tokenLifetime`` when `nil`.
        public var accessTokenLifetime: Duration?
        /// The document size `/items` produces without `size`.
        public var defaultItemsSize: Int
        /// The largest document `/items` produces.
        public var maxItemsSize: Int
        /// How long a refresh token that was just used stays usable once more (rotation with a reuse
        /// interval, as Auth0 and Okta offer): a client killed after the server rotated but before it
        /// saved the new pair can still refresh. `nil`: a used refresh token is refused at once.
        public var refreshTokenReuseInterval: Duration?

        /// Creates a configuration.
        public init(
            password: String = "secret", accessTokenLifetime: Duration? = nil, defaultItemsSize: Int = 2048,
            maxItemsSize: Int = 1024 * 1024, refreshTokenReuseInterval: Duration? = nil
        ) {
            self.password = password
            self.accessTokenLifetime = accessTokenLifetime
            self.defaultItemsSize = defaultItemsSize
            self.maxItemsSize = maxItemsSize
            self.refreshTokenReuseInterval = refreshTokenReuseInterval
        }
    }

    /// The path prefix, `reference` unless another id was given.
    public let id: String
    /// The configuration.
    public let configuration: Configuration

    let store = Locked(ReferenceStore())

    /// Creates the emulator.
    /// - Parameters:
    ///   - id: The path prefix (change it only to serve two reference backends side by side).
    ///   - configuration: What it accepts and produces.
    public init(id: String = "reference", configuration: Configuration = .init()) {
        self.id = id
        self.configuration = configuration
    }

    /// Adds the routes listed in the type's documentation.
    public func addRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
        let generator = environment.makeGenerator(stream: "refresh-tokens")
        store.withLock { $0.generator = generator }
        addAuthRoutes(to: group, environment: environment)
        addItemRoutes(to: group, environment: environment)
        addEventRoutes(to: group)
        addEchoRoutes(to: group)
        addGraphQLRoutes(to: group)
    }
}

extension ReferenceEmulator {
    /// How many times `/auth/refresh` rotated a token pair successfully.
    public var refreshCount: Int { store.withLock { $0.refreshCount } }
    /// How many times `/auth/token` issued a token pair.
    public var loginCount: Int { store.withLock { $0.loginCount } }
    /// The events stored by `POST /events`, in arrival order, each id once.
    public var receivedEvents: [ReferenceEvent] { store.withLock { $0.events } }
    /// The number of distinct event ids stored.
    public var uniqueEventCount: Int { store.withLock { $0.events.count } }
    /// How many events arrived again with an id already stored (and were not stored twice).
    public var duplicateEventCount: Int { store.withLock { $0.duplicateEventCount } }

    /// Invalidates every outstanding refresh token, as a backend does when a session is revoked.
    public func revokeRefreshTokens() {
        store.withLock { $0.refreshTokens.removeAll() }
    }
}
