@_spi(EngageProvider) import EngageCore
import Foundation
import GRDB
import HTTPTypes
import Logging

/// Youll content: feeds, content, journeys, events, playlists, meals, quizzes and the user's profile,
/// over Youll's GraphQL (Hasura) and REST APIs, with the session owned by the host app.
///
/// ```swift
/// let youll = try await engage.provider(YoullProvider.self)
/// youll.setSession(AppSession(auth: auth))                  // the host app's login
/// let feed = try await youll.fetch(.homeFeed())
/// let item = try await youll.fetch(.content(id: "c-101"), cachePolicy: .cacheFirst)
/// try await youll.perform(.like(contentID: "c-101"))
/// for try await profile in youll.responses(.profile()) {   // the cached profile at once, then the fresh one
///     show(profile.value)
/// }
/// ```
///
/// Every operation is a value (``YoullQuery`` or ``YoullMutation``) run by ``fetch(_:cachePolicy:)``,
/// ``responses(_:)`` or ``perform(_:)``, each with a completion-handler form, and publishes
/// `custom_{success|error}_<operation name>_youll`.
///
/// **Errors.** A GraphQL answer listing errors is an error (`.graphQL`, with every message, code and
/// path), even when it carries partial data, and a mutation whose answer lists errors has failed. An
/// answer Hasura marks `invalid-jwt` (sent with HTTP 200) is an expired session: the host is asked to
/// refresh once and the request is sent once more; a second `invalid-jwt` is `.sessionExpired`.
public final class YoullProvider: EngageProvider {
    /// The provider's configuration type.
    public typealias Configuration = YoullConfiguration

    /// Id `youll`: content, offers (promo offers) and identity (log out).
    public static let descriptor = ProviderDescriptor(id: .youll, displayName: "Youll content", version: "1.0.0")

    /// Creates the query cache table `youll_cache`, then gives its entries a lifetime.
    @_spi(EngageProvider) public static let migrations = [YoullCache.migration, YoullCache.lifetimeMigration]

    let context: ProviderContext
    let configuration: YoullConfiguration
    let sessionBox = YoullSessionBox()
    /// Counts ``setSession(_:)`` calls, for ``YoullCurrentUser``.
    let sessionChanges = StateBroadcaster<UInt64>(0)
    let authorizer: HostTokenAuthorizer
    let graphQL: GraphQLClient
    let rest: APIClient?
    let cache: YoullCache
    /// The `device-id` sent when neither the user nor the configuration gives one.
    private let installation: InstallationID

    /// Creates the GraphQL and REST clients over the host-session authoriser, and the cache.
    @_spi(EngageProvider) public init(configuration: YoullConfiguration, context: ProviderContext) async throws {
        try configuration.validate(for: .youll)
        self.context = context
        self.configuration = configuration
        installation = context.installationID(storedUnder: "device_id", configured: configuration.deviceID)
        let authorizer = HostTokenAuthorizer(
            provider: sessionBox, clock: context.clock, providerID: .youll,
            refreshTimeout: .seconds(double: context.configuration.auth.refreshTimeoutSeconds)
        )
        self.authorizer = authorizer
        let endpoint = configuration.graphQLEndpoint
        let graphQLClient = try context.makeAPIClient(
            baseURL: endpoint.deletingLastPathComponent(), authorizer: authorizer, policy: Self.expiredSessionPolicy
        )
        // The user headers are set per call, from the user read once for the call (see `send`).
        graphQL = GraphQLClient(client: graphQLClient, path: endpoint.lastPathComponent)
        var restHeaders = HTTPFields()
        restHeaders[Self.platformHeader] = configuration.platform
        if let appVersion = configuration.appVersion { restHeaders[Self.appVersionHeader] = appVersion }
        rest = try configuration.restBaseURL.map {
            try context.makeAPIClient(baseURL: $0, authorizer: authorizer, defaultHeaders: restHeaders)
        }
        guard let sealer = context.storage.sealer else {
            throw EngageError(.invalidConfiguration, "The Youll cache needs a sealing key.", providerID: .youll)
        }
        cache = YoullCache(
            storage: context.storage, sealer: sealer, clock: context.clock, capacityBytes: configuration.cacheCapacityBytes,
            lifetime: configuration.cacheLifetimeSeconds
        )
    }

    // MARK: Session

    /// Hands over the host app's session: its token and user are used from the next request on.
    /// Until an app calls this, the provider browses as a guest. Answers still in flight for the
    /// previous session are not cached.
    public func setSession(_ session: any YoullSession) {
        sessionBox.session = session
        cache.invalidateInFlight()
        sessionChanges.update { $0 &+= 1 }
    }

    /// The session in use (a guest session until ``setSession(_:)``).
    public var session: any YoullSession { sessionBox.session }

    /// Log in belongs to the host app: this always throws `.notApplicable`, which `engage.logIn` reports
    /// in its report's `notApplicable`, not as a failure. Log the user in through the app's auth
    /// service and hand the session over with ``setSession(_:)``.
    public func logIn(_ identity: UserIdentity) async throws {
        throw EngageError(
            .notApplicable, "Youll's session belongs to the host app: it is handed over with YoullProvider.setSession(_:).",
            providerID: .youll,
            recoverySuggestion: "Log in through the app's auth service and call YoullProvider.setSession(_:)."
        )
    }

    /// Forgets everything Youll persisted on this device: the query cache, the cached profile and the
    /// device id (a new one is made on next use, unless ``YoullConfiguration/deviceID`` is set). The
    /// host app's session is the host's to end.
    public func logOut() async throws {
        try await context.perform(YoullNamedOperation.logOut) {
            try await cache.removeAll()
            try context.storage.removeAll()
            try installation.forget()
        }
    }

    // MARK: Running operations

    // callback-twin: hand-written (with `.cacheThenNetwork` it delivers the cached answer first)
    /// Runs `query` under `cachePolicy` (the configured default when `nil`) and returns its answer.
    ///
    /// With `.cacheThenNetwork` this returns the backend's answer (after storing it); use
    /// ``responses(_:)`` or the completion form to receive the cached answer first.
    public func fetch<Value: Sendable>(_ query: YoullQuery<Value>, cachePolicy: YoullCachePolicy? = nil) async throws(EngageError) -> Value
    {
        let policy = cachePolicy ?? configuration.defaultCachePolicy
        return try await context.perform(YoullNamedOperation(query.name)) {
            let user = await sessionBox.session.userInfo()
            let slot = try await cacheSlot(name: query.name, request: query.request, user: user)
            if policy == .cacheFirst || policy == .cacheOnly, let slot,
                let cached = try await cachedValue(query, key: slot.key)
            {
                return cached
            }
            if policy == .cacheOnly {
                throw EngageError(
                    .youllNotCached, "No cached answer for \(query.name).", providerID: .youll,
                    recoverySuggestion: "Fetch it once with another cache policy."
                )
            }
            return try await networkValue(query, slot: slot, user: user)
        }
    }

    /// The cached answer of `query` (if any) and then the backend's, as they arrive: the
    /// `.cacheThenNetwork` policy for `async` callers. The sequence ends after the backend's
    /// answer, or throws its failure; ending the iteration cancels the request.
    public func responses<Value: Sendable>(_ query: YoullQuery<Value>) -> AsyncThrowingStream<YoullResponse<Value>, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let user = await sessionBox.session.userInfo()
                    let slot = try await cacheSlot(name: query.name, request: query.request, user: user)
                    if let slot, let cached = try await cachedValue(query, key: slot.key) {
                        continuation.yield(YoullResponse(value: cached, isFromCache: true))
                    }
                    let fresh = try await context.perform(YoullNamedOperation(query.name)) {
                        try await networkValue(query, slot: slot, user: user)
                    }
                    continuation.yield(YoullResponse(value: fresh, isFromCache: false))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: EngageError.wrapping(error, providerID: .youll))
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Runs `mutation` and returns its answer. Mutations are never cached and never retried
    /// automatically; one that succeeds empties the query cache, whose answers it may have made stale.
    @discardableResult
    public func perform<Value: Sendable>(_ mutation: YoullMutation<Value>) async throws(EngageError) -> Value {
        try await context.perform(YoullNamedOperation(mutation.name)) {
            let user = await sessionBox.session.userInfo()
            let body = try await send(
                name: mutation.name, isUserScoped: mutation.isUserScoped, request: mutation.request, isMutation: true, user: user
            )
            let value = try mutation.decode(body, decodingContext)
            // A change shows in many answers (a like in feeds, lists and the content itself): none of
            // the cached ones can be trusted any more.
            do {
                try await cache.removeAll()
            } catch {
                context.logger.warning(
                    "Could not empty the Youll cache after a change", metadata: ["operation": "\(mutation.name)", "error": "\(error)"])
            }
            return value
        }
    }

    /// How many answers the query cache holds and their size in bytes (sealed).
    public func cacheUsage() async throws(EngageError) -> (entries: Int, bytes: Int) {
        try await context.local { try await cache.usage() }
    }

    /// Empties the query cache (the profile included).
    public func clearCache() async throws(EngageError) {
        try await context.local { try await cache.removeAll() }
    }

    // MARK: Internals

    var decodingContext: YoullDecodingContext { YoullDecodingContext(language: configuration.extraLang) }

    func cachedValue<Value: Sendable>(_ query: YoullQuery<Value>, key: String) async throws -> Value? {
        if let value = cache.decodedValue(key: key, as: Value.self) { return value }
        let generation = cache.generation
        guard let hit = try await cache.read(key: key) else { return nil }
        do {
            let value = try query.decode(hit.body, decodingContext)
            cache.keepDecoded(value, key: key, storedAt: hit.storedAt, size: hit.body.count, generation: generation)
            return value
        } catch {
            // A stored answer this version cannot read (an older shape): drop it, as a miss.
            context.logger.debug("Dropped an unreadable cached answer", metadata: ["operation": "\(query.name)"])
            try? await cache.remove(key: key)
            return nil
        }
    }

    /// Sends `query` as `user` and returns its answer, stored in `slot` unless the cache was invalidated
    /// meanwhile or the session's user is no longer the one the slot belongs to.
    func networkValue<Value: Sendable>(_ query: YoullQuery<Value>, slot: CacheSlot?, user: YoullUserInfo) async throws -> Value {
        let body = try await send(name: query.name, isUserScoped: query.isUserScoped, request: query.request, isMutation: false, user: user)
        let value = try query.decode(body, decodingContext)
        guard let slot else { return value }
        do {
            guard await cacheOwner(of: sessionBox.session.userInfo()) == slot.owner else {
                context.logger.debug(
                    "Not caching an answer: the session's user changed while it was in flight", metadata: ["operation": "\(query.name)"])
                return value
            }
            try await cache.write(key: slot.key, operation: query.name, body: body, value: value, generation: slot.generation)
        } catch {
            context.logger.warning(
                "Could not store an answer in the Youll cache", metadata: ["operation": "\(query.name)", "error": "\(error)"])
        }
        return value
    }

    /// Whether `name` needs the token: the configured list (or user-scoped operations), then the
    /// session's say.
    func requiresToken(name: String, isUserScoped: Bool) -> Bool {
        let byDefault = configuration.tokenRequiredOperations.map { $0.contains(name) } ?? isUserScoped
        return sessionBox.session.requiresToken(operation: name, byDefault: byDefault)
    }

    /// Sends the operation as `user` (read once by the caller, so the headers, the cache key and the
    /// check after the answer all name the same user).
    func send(name: String, isUserScoped: Bool, request: YoullRequest, isMutation: Bool, user: YoullUserInfo) async throws -> Data {
        if case let .invalid(error) = request { throw error }
        let required = requiresToken(name: name, isUserScoped: isUserScoped)
        if required, await sessionBox.accessToken() == nil {
            throw EngageError(
                .youllMissingAccessToken, "Missing access token: \(name) needs a logged-in user.", providerID: .youll,
                recoverySuggestion: "Log the user in through the host app and hand the session over with setSession(_:)."
            )
        }
        let authorization: RequestOptions.Authorization = required ? .required : .ifAvailable
        switch request {
        case let .graphQL(document, operationName, variables):
            var variables = variables
            if request.takesLanguage { variables["extraLang"] = .string(configuration.extraLang) }
            return try await graphQL.responseBody(
                document: document, variables: JSONValue.object(variables), operationName: operationName, isMutation: isMutation,
                authorization: authorization, headers: graphQLHeaders(for: user)
            )
        case let .rest(method, path, query, body):
            guard let rest else {
                throw EngageError(
                    .notConfigured, "\(name) uses Youll's REST API, and restBaseURL is not configured.", providerID: .youll,
                    recoverySuggestion: "Set restBaseURL in the Youll configuration."
                )
            }
            var headers = HTTPFields()
            if let userID = user.userID { headers[Self.youllUserID] = userID }
            return try await rest.data(
                method, path, query: query, headers: headers, body: body,
                options: RequestOptions(isRepeatable: method == .get, authorization: authorization)
            )
        case let .invalid(error):
            throw error
        }
    }

    /// Where an answer is cached, fixed before its request is sent: the key (operation, its GraphQL
    /// document, variables, language, owner), the owner, and the cache generation of that moment.
    struct CacheSlot: Sendable {
        let key: String
        let owner: YoullCache.Owner
        let generation: UInt64
    }

    /// The cache slot of an operation for the language and `user`; `nil` (the answer is not cached)
    /// for a signed-in session whose user cannot be told.
    func cacheSlot(name: String, request: YoullRequest, user: YoullUserInfo) async throws -> CacheSlot? {
        let generation = cache.generation
        guard let owner = await cacheOwner(of: user) else { return nil }
        let variables: Data
        switch request {
        case let .graphQL(document, _, values):
            // The document is part of the key: two of an app's own queries with one name (or one named
            // like a built-in operation) and the same variables ask for different things.
            variables = Data(document.utf8) + Data([0]) + (try YoullJSON.encoder().encode(JSONValue.object(values)))
        case let .rest(_, path, query, _):
            variables = Data((path + "?" + query.map { "\($0.0)=\($0.1 ?? "")" }.joined(separator: "&")).utf8)
        case .invalid:
            variables = Data()
        }
        let key = YoullCache.key(operation: name, variables: variables, language: configuration.extraLang, owner: owner)
        return CacheSlot(key: key, owner: owner, generation: generation)
    }

    /// Whose answers a session with `user` gets: the user id; without one, the subject of the access
    /// token; a guest when there is no token. `nil` when a token names no subject: such answers are not
    /// cached, so two signed-in users never share the guest's entries.
    func cacheOwner(of user: YoullUserInfo) async -> YoullCache.Owner? {
        if let userID = user.userID { return .user(userID) }
        guard let token = await sessionBox.session.accessToken() else { return .guest }
        guard let subject = try? JWTClaims(decoding: token).subject, !subject.isEmpty else { return nil }
        return .user(subject)
    }

    /// The GraphQL headers naming `user`: Hasura's role and user id, and the device id.
    func graphQLHeaders(for user: YoullUserInfo) -> HTTPFields {
        var fields = HTTPFields()
        fields[Self.hasuraRole] = user.role ?? (user.userID == nil ? "guest" : "user")
        if let userID = user.userID { fields[Self.hasuraUserID] = userID }
        fields[Self.deviceIDHeader] =
            user.deviceID ?? (try? installation.value()) ?? "unknown"
        return fields
    }

    /// Reads Hasura's `invalid-jwt` error (sent with HTTP 200) as a refused access token: the host
    /// refreshes once (`HostTokenAuthorizer`) and the request goes out once more; a resent request that
    /// meets it again, or one the host cannot refresh, fails with `.sessionExpired`.
    static let expiredSessionPolicy = ResponsePolicy { answer in
        let response = answer.response
        guard response.status == 200, response.body.count <= 65_536, response.body.containsBytes(invalidJWTCode),
            let errors = GraphQLClient.errors(in: response.body), let entry = errors.first(where: { $0.code == "invalid-jwt" })
        else { return .accept }
        let error = EngageError(
            .sessionExpired, "Youll refused the access token: \(answer.redactor.redact(text: String(entry.message.prefix(200))))",
            providerID: .youll,
            recoverySuggestion: "The host app's refreshed token was refused too: log the user in again."
        )
        return .credentialRejected(error, credential: .accessToken)
    }

    private static let invalidJWTCode = Data("invalid-jwt".utf8)
    static let hasuraRole = HTTPField.Name(literal: "x-hasura-role")
    static let hasuraUserID = HTTPField.Name(literal: "x-hasura-user-id")
    static let deviceIDHeader = HTTPField.Name(literal: "device-id")
    static let platformHeader = HTTPField.Name(literal: "X-Youll-Platform")
    static let appVersionHeader = HTTPField.Name(literal: "X-Youll-App-Version")
    static let youllUserID = HTTPField.Name(literal: "X-Youll-User-Id")
}

// The capabilities the facade fans out to: the provider-author surface.
@_spi(EngageProvider) extension YoullProvider: ContentProviding, OffersProviding, IdentityAware {}
