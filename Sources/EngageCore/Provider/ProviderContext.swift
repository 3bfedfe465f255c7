import Foundation
import HTTPTypes
import Logging

/// Everything a provider shares with the rest of EngageKit, handed to its initialiser.
///
/// A provider never reaches for globals: its HTTP stack, storage namespace, secrets, event bus,
/// analytics queue, logger and clock all come from here, which is what makes every
/// provider testable with a fake clock and an in-memory transport.
@_spi(EngageProvider) public struct ProviderContext: Sendable {
    /// The provider's descriptor.
    public let descriptor: ProviderDescriptor
    /// The whole configuration (network, auth and analytics settings apply to every provider).
    public let configuration: EngageConfiguration
    /// A logger labelled with the provider's id.
    public let logger: Logger
    /// The time source (a fake clock in tests).
    public let clock: any EngageClock
    /// The randomness source (seeded in tests).
    public let random: any RandomSource
    /// The bottom transport (URLSession by default); `makeAPIClient` wraps it in the middleware stack.
    public let transport: any HTTPTransport
    /// The provider's storage namespace, its migrations applied, able to seal values.
    public let storage: StorageNamespace
    /// The registry's database (the provider may open additional databases of its own).
    public let database: EngageDatabase
    /// Where the sealing keys live.
    public let secretStore: any SecretStore
    /// Seals the provider's sensitive values.
    public let sealer: Sealer
    /// The event bus shared by every provider.
    public let events: EventBus
    /// The durable analytics queue; register a destination in `start()`.
    public let analytics: DurableQueue
    /// The redactor used for logs; extend it with the provider's secret header and key names.
    public let redactor: Redactor
    /// The user's analytics choice. The analytics queue applies it to every event; a provider that
    /// sends analytics or telemetry outside the queue checks `consent.isEnabled(for: providerID)`.
    public let consent: AnalyticsConsent
    /// Whether the device is online: wait on it to retry work that failed for lack of a connection.
    public let connectivity: Connectivity
    /// The app's anonymous id (the database's: one per database), from which
    /// ``installationID(storedUnder:configured:format:)`` derives the provider's own; a provider never
    /// sends the app's id itself.
    public var anonymousID: AnonymousID { database.anonymousID }

    /// A context; the registry makes one per provider (tests may build their own). Without `consent`,
    /// the analytics queue's (or, without one, a consent that allows everything) is used; without
    /// `connectivity`, the system's.
    public init(
        descriptor: ProviderDescriptor, configuration: EngageConfiguration, logger: Logger, clock: any EngageClock,
        random: any RandomSource, transport: any HTTPTransport, storage: StorageNamespace, database: EngageDatabase,
        secretStore: any SecretStore, sealer: Sealer, events: EventBus,
        analytics: DurableQueue, redactor: Redactor = Redactor(), consent: AnalyticsConsent? = nil, connectivity: Connectivity? = nil
    ) {
        self.connectivity = connectivity ?? .system()
        self.consent = consent ?? analytics.consent ?? AnalyticsConsent(storage: nil)
        self.descriptor = descriptor
        self.configuration = configuration
        self.logger = logger
        self.clock = clock
        self.random = random
        self.transport = transport
        self.storage = storage
        self.database = database
        self.secretStore = secretStore
        self.sealer = sealer
        self.events = events
        self.analytics = analytics
        self.redactor = redactor
    }

    /// The registry's observable models, shared with the facade (`engage.warply.wallet` and
    /// `warply.wallet` are one object); a context made outside a registry has its own.
    package var models = ModelSlots()

    /// The provider's id.
    public var providerID: ProviderID { descriptor.id }

    /// An `APIClient` for `baseURL` over the standard stack with the configured retry policy, timeout,
    /// response size limit (`network.maxResponseBytes`) and call deadline, authorising with
    /// `authorizer`, judging answers with `policy`, adding `defaultHeaders` and `requestHeaders()` to
    /// every request, and redacting logs and server messages with the context's redactor plus
    /// `sensitiveHeaders` and `sensitiveKeys`. `logger` replaces the context's (a provider with a log
    /// level of its own passes a copy with that level); `allowsCellularAccess: false` keeps every
    /// request off cellular networks. Throws `.invalidConfiguration` for a URL the settings do not allow.
    public func makeAPIClient(
        baseURL: URL,
        authorizer: any RequestAuthorizer = NoAuthorizer(),
        policy: ResponsePolicy = .standard,
        retry: RetryPolicy? = nil,
        timeout: Duration? = nil,
        defaultHeaders: HTTPFields = [:],
        requestHeaders: (@Sendable () -> HTTPFields)? = nil,
        sensitiveHeaders: Set<String> = [],
        sensitiveKeys: Set<String> = [],
        logger: Logger? = nil,
        allowsCellularAccess: Bool = true
    ) throws(EngageError) -> APIClient {
        try configuration.network.validate(baseURL: baseURL, providerID: providerID)
        let redactor = redactor.adding(headers: sensitiveHeaders, keys: sensitiveKeys)
        let logger = logger ?? self.logger
        let stack = APIClient.standardTransport(
            around: transport, timeout: timeout ?? configuration.network.timeout, clock: clock, logger: logger, redactor: redactor)
        return APIClient(
            baseURL: baseURL, transport: stack, providerID: providerID, defaultHeaders: defaultHeaders,
            maxResponseBytes: configuration.network.maxResponseBytes, authorizer: authorizer, policy: policy,
            retry: retry ?? configuration.network.retryPolicy, redactor: redactor, callDeadline: configuration.network.callDeadline,
            requestHeaders: requestHeaders, allowsCellularAccess: allowsCellularAccess, clock: clock, random: random, logger: logger
        )
    }

    /// A `TokenManager` persisting its tokens sealed in this provider's namespace under `key`, with
    /// the configured auth settings, publishing `SessionEndedEvent` on this context's bus.
    public func makeTokenManager(refresher: any TokenRefresher, key: String = "tokens") -> TokenManager {
        makeTokenManager(refresher: refresher, store: SealedTokenStore(namespace: storage, key: key))
    }

    /// A `TokenManager` persisting its tokens in `store` (for a provider that keeps more than the pair
    /// in its session, as Warply keeps its client credentials), with `settings` (the configured `auth`
    /// settings when `nil`), publishing `SessionEndedEvent` on this context's bus.
    public func makeTokenManager(refresher: any TokenRefresher, store: any TokenStore, settings: AuthSettings? = nil) -> TokenManager {
        TokenManager(
            providerID: providerID,
            refresher: refresher,
            store: store,
            clock: clock,
            settings: settings ?? configuration.auth,
            events: events,
            logger: logger
        )
    }

    /// Runs one provider operation: converts its failure into an `EngageError` attributed to this
    /// provider and publishes its `OperationEvent` (`custom_success_<operation>_<suffix>` or
    /// `custom_error_...`). The requests `body` sends belong to `operation` (its name, whether they may
    /// be resent) unless they name one themselves (see ``ProviderOperation``).
    public func perform<Value: Sendable>(
        _ operation: some ProviderOperation, _ body: () async throws -> Value
    ) async throws(EngageError)
        -> Value
    {
        let start = clock.uptime
        do {
            let value = try await CurrentOperation.$value.withValue(operation) { try await body() }
            events.publish(
                OperationEvent(
                    providerID: providerID, operation: operation.name.rawValue, eventSuffix: descriptor.eventSuffix,
                    outcome: .success, duration: clock.uptime - start
                ))
            return value
        } catch {
            let engageError = EngageError.wrapping(error, providerID: providerID)
            events.publish(
                OperationEvent(
                    providerID: providerID, operation: operation.name.rawValue, eventSuffix: descriptor.eventSuffix,
                    outcome: .failure(engageError), duration: clock.uptime - start
                ))
            throw engageError
        }
    }

    /// Runs a local operation (one that sends nothing, such as reading the stored session) without an
    /// operation event, turning its errors into `EngageError` attributed to this provider, so it can
    /// throw `EngageError` like the provider's other operations.
    public func local<Value: Sendable>(_ body: () async throws -> Value) async throws(EngageError) -> Value {
        do {
            return try await body()
        } catch {
            throw EngageError.wrapping(error, providerID: providerID)
        }
    }

    /// The callback twin of an async operation: `completion` runs once, on the main actor.
    @discardableResult
    public func callback<Value: Sendable>(
        _ completion: @escaping @MainActor @Sendable (Result<Value, EngageError>) -> Void,
        operation: @escaping @Sendable () async throws -> Value
    ) -> any EngageCancellable {
        CallbackBridge.run(providerID: providerID, completion: completion, operation: operation)
    }
}
