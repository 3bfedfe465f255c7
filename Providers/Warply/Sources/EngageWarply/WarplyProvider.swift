@_spi(EngageProvider) import EngageCore
import Foundation
import GRDB
import HTTPTypes
import Logging

/// Warply (DEI) loyalty: campaigns, coupons, merchants, the user's profile, cards and history, with
/// the session and device registration kept sealed on disk.
///
/// ```swift
/// var configuration = EngageConfiguration.preset(.production, appID: "gr.example.app")
/// try configuration.setProvider(.warply, WarplyConfiguration.preset(.production, appUUID: "f83dfde1145e4c2da69793abb2f579af"))
/// let engage = try Engage(configuration: configuration)
/// let warply = try await engage.provider(WarplyProvider.self)
/// try await warply.logIn(deiEmail: "maria@example.gr")
/// let campaigns = try await warply.campaigns()          // merged, filtered and sorted for a logged-in user
/// let coupons = try await warply.coupons()              // active and redeemed lists
/// ```
///
/// Every operation has a completion-handler twin (same name, trailing `completion:`) and publishes
/// `custom_success_<operation>_loyalty` or `custom_error_<operation>_loyalty` on the event bus.
///
/// **Session.** Logins store the tokens sealed in the provider's storage namespace. The access
/// token is refreshed 5 minutes before it expires (single flight: however many calls need it, one
/// refresh), a 401 triggers one refresh and one resend, a rejected refresh ends the session
/// (`SessionEndedEvent`), and a refresh failing with 5xx or a network error keeps the tokens and counts
/// towards a circuit breaker (5 failures, 300 s by default; `auth` settings, overridable in the Warply
/// section). A refresh is sent once, never repeated.
///
/// **Registration.** The first request registers the device (`web_id`, `api_key`, stored sealed);
/// every request is signed with it. When the server answers status 9 the device registers again and
/// the request is sent once more.
public final class WarplyProvider: EngageProvider {
    /// The provider's configuration type: the `warply` section of `EngageConfiguration.providers`.
    public typealias Configuration = WarplyConfiguration

    /// Warply's descriptor; operation events end in `_loyalty`, as the Warply SDK named them.
    public static let descriptor = ProviderDescriptor(
        id: .warply, displayName: "Warply loyalty", version: "2.3.0", eventSuffix: "loyalty"
    )

    /// The durable queue destination of Warply analytics events.
    public static let eventDestination = "warply.analytics"

    let context: ProviderContext
    /// The provider's logger: the context's, at the configuration's `logLevel` when it sets one.
    let logger: Logger
    /// The configuration the provider was started with.
    public let configuration: WarplyConfiguration
    let client: WarplyClient
    let registrar: WarplyRegistrar
    let session: WarplySessionStore
    /// Runs inside a login after the answer arrived and before the new session is installed (tests
    /// use it to end a refresh of the previous session at that moment).
    package let beforeSessionInstall = Locked<(@Sendable () async -> Void)?>(nil)
    /// The user's session tokens (for diagnostics: `refreshCount`, `breaker`).
    package let tokens: TokenManager
    /// The last fetched campaigns, coupons, merchants and the rest, with the seed's getters.
    public let state: WarplyState
    /// The language operations use when none is given; change it with ``setLanguage(_:)``.
    public var language: WarplyLanguage { currentLanguage.value }
    /// The id sent as `unique-device-id`: configured, or generated once and persisted (and anew by
    /// ``reset()``).
    public var deviceID: String { (try? installation.value()) ?? "" }
    /// The device id's storage: loaded when the provider starts, renewed by a reset.
    let installation: InstallationID
    let networkStatusTracker: WarplyNetworkStatusTracker
    /// The device's details, sent after registration and with push tokens.
    let deviceInfo: WarplyDeviceInfo
    private let currentLanguage: Locked<WarplyLanguage>
    let pushToken = Locked<String?>(nil)

    /// Creates the provider from its validated configuration and the registry's shared services: the
    /// HTTP clients (unsigned, signed, bearer), the device registrar, the sealed session store and the
    /// token manager. Nothing is sent yet; ``start()`` registers the device.
    ///
    /// - Throws: `.invalidConfiguration` when `configuration` is not valid, or a storage error when the
    ///   device id cannot be read or stored.
    @_spi(EngageProvider) public init(configuration: WarplyConfiguration, context: ProviderContext) async throws {
        try configuration.validate(for: .warply)
        self.context = context
        self.configuration = configuration
        // The registry's loggers keep their level in their own copy of the handler, so this changes
        // Warply's lines only, never the app's logger.
        var logger = context.logger
        if let level = configuration.logLevel { logger.logLevel = level }
        self.logger = logger
        currentLanguage = Locked(configuration.language)
        let state = WarplyState(events: context.events)
        self.state = state
        // Warply's device id: an uppercase UUID, kept under its first key.
        let installation = context.installationID(storedUnder: "device_id", configured: configuration.deviceID) { $0.uuidString }
        _ = try installation.value()
        self.installation = installation
        networkStatusTracker = WarplyNetworkStatusTracker()

        let baseURL = configuration.environment.baseURL
        let timeout = configuration.requestTimeoutSeconds.map { Duration.seconds(double: $0) }
        let retry = configuration.maxAttempts.map { attempts in
            var network = context.configuration.network
            network.maxAttempts = attempts
            return network.retryPolicy
        }
        let bundleID = configuration.bundleID ?? context.configuration.appID
        let headers = WarplyPlatformHeaders.fields(bundleID: bundleID)
        deviceInfo = WarplyDeviceInfo.current(bundleID: bundleID, sdkVersion: Self.descriptor.version)
        // The device id is read per request, so that a reset's new id applies to every client at once.
        let deviceHeader: @Sendable () -> HTTPFields = {
            var fields = HTTPFields()
            // Read from memory: the id was loaded above, and a reset stores its new one first.
            fields[WarplySigner.field(WarplyWire.Header.uniqueDeviceID)] = try? installation.value()
            return fields
        }
        let sensitiveKeys: Set<String> = [
            "access_token", "refresh_token", "client_id", "client_secret", "api_key", "web_id", "card_number", "coupon", "barcode",
            "msisdn", "guid", "user_identifier", "old_password", "new_password", "device_token",
        ]
        // Every Warply client: the same base URL, headers, timeout and redaction; the signed ones read
        // their answers with the status rules.
        func makeClient(
            _ authorizer: any RequestAuthorizer = NoAuthorizer(),
            policy: ResponsePolicy = WarplyAnswerRules.policy(signing: configuration.signing)
        ) throws(EngageError) -> APIClient {
            try context.makeAPIClient(
                baseURL: baseURL, authorizer: authorizer, policy: policy, retry: retry, timeout: timeout, defaultHeaders: headers,
                requestHeaders: deviceHeader, sensitiveHeaders: WarplyWire.Header.sensitive, sensitiveKeys: sensitiveKeys, logger: logger,
                allowsCellularAccess: configuration.allowsCellularAccess
            )
        }
        let unsigned = try makeClient(policy: .standard)
        registrar = WarplyRegistrar(client: unsigned, appUUID: configuration.appUUID, storage: context.storage, logger: logger)
        let signer = SignedHeadersAuthorizer(
            signer: WarplySigner(signing: configuration.signing, merchantID: configuration.merchantID, registrar: registrar),
            clock: context.clock)
        let signed = try makeClient(signer)
        // A session that ends (logout, rejected refresh) takes the user's in-memory data with it.
        session = WarplySessionStore(namespace: context.storage) { state.clear() }
        tokens = context.makeTokenManager(
            refresher: WarplyTokenRefresher(client: signed, appUUID: configuration.appUUID, session: session), store: session,
            settings: configuration.auth
        )
        let bearer = try makeClient(CompositeAuthorizer([signer, BearerAuthorizer(tokens: tokens)]))
        // The partner (Cosmote) calls: signed headers and the partner's Basic credentials.
        let partner = try configuration.partnerCredentials.map { credentials throws(EngageError) in
            try makeClient(CompositeAuthorizer([signer, BasicAuthorizer(username: credentials.username, password: credentials.password)]))
        }
        client = WarplyClient(
            signed: signed, bearer: bearer, partner: partner, appUUID: configuration.appUUID, networkStatus: networkStatusTracker)
    }

    /// Registers the analytics destination and, best effort, the device (a device that cannot
    /// register now registers on its first request).
    @_spi(EngageProvider) public func start() async throws {
        if configuration.analyticsEnabled {
            try await context.analytics.register(
                destination: Self.eventDestination,
                deliverer: WarplyAnalyticsDeliverer(client: client, logger: logger)
            )
            await context.analytics.scheduleFlushSoon(after: .zero)
        }
        do {
            if configuration.signing == .deviceRegistration { _ = try await registrar.registration() }
            await syncDeviceInfo()
        } catch {
            logger.notice(
                "Warply device registration deferred to the first request",
                metadata: ["error": "\(EngageError.wrapping(error, providerID: .warply).code)"]
            )
        }
    }

    /// Stops delivering analytics.
    @_spi(EngageProvider) public func shutdown() async {
        if configuration.analyticsEnabled {
            await context.analytics.unregister(destination: Self.eventDestination)
        }
    }

    /// Changes the default language of later operations.
    public func setLanguage(_ language: WarplyLanguage) {
        currentLanguage.withLock { $0 = language }
    }

    /// The base URL requests go to.
    public var baseURL: URL { configuration.environment.baseURL }

}

// The capabilities the facade fans out to: the provider-author surface.
@_spi(EngageProvider)
extension WarplyProvider: OffersProviding, MerchantDirectory, ContentProviding, IdentityAware, EventTracking,
    PushTokenReceiving
{}
