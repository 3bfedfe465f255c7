import Foundation
import Logging

/// Creates, starts and holds providers. Instance-scoped: tests and multi-tenant apps create as many as
/// they like, each with its own database.
///
/// Registration is explicit. Duplicate ids and bad configuration are errors; providers are created
/// and started concurrently, and one failing provider does not stop the others (see the start report).
///
/// Two live registries must not share a database file (both analytics queues would deliver the same
/// rows): within one process a second registry on a file already in use is refused with
/// `.invalidConfiguration`. The file is released by `shutdown()` or when the registry is released.
@_spi(EngageProvider) public actor ProviderRegistry {
    /// The validated configuration the registry was created with.
    public nonisolated let configuration: EngageConfiguration
    /// The providers' observable models, made on first read by a provider or by the facade.
    package nonisolated let models = ModelSlots()
    /// The shared services (transport, clock, randomness, secrets, logger).
    public nonisolated let environment: RegistryEnvironment
    /// The event bus shared by every provider.
    public nonisolated let events: EventBus
    /// The registry's SQLite database (every provider's namespace and the analytics queue).
    public nonisolated let database: EngageDatabase
    /// The durable analytics queue shared by every provider.
    public nonisolated let analytics: DurableQueue
    /// Where the sealing key (and providers' secrets) are kept.
    public nonisolated let secretStore: any SecretStore
    /// Seals sensitive values stored in the database.
    public nonisolated let sealer: Sealer
    /// The user's analytics choice, stored in the database and applied by the analytics queue.
    public nonisolated let consent: AnalyticsConsent
    /// The app's anonymous id (`Engage.anonymousID`), shared by every provider's context; read from
    /// the database on first use.
    public nonisolated var anonymousID: AnonymousID { database.anonymousID }

    private enum Phase { case registering, starting, running, shuttingDown, shutDown }

    private var phase = Phase.registering
    private var registrations: [ProviderRegistration] = []
    /// Providers whose registration was refused for their configuration; reported by `start()`.
    private var refusedRegistrations: [ProviderID: EngageError] = [:]
    /// Configuration sections no registered provider reads; reported by `start()`.
    private var unusedSections: [String] = []
    private var running: [ProviderID: any EngageProvider] = [:]
    private var order: [ProviderID] = []
    private var report = RegistryStartReport()
    private var startTask: Task<RegistryStartReport, Never>?
    private var shutdownTask: Task<Void, Never>?
    /// How many times `start()` was called (for tests).
    private(set) var startCallCount = 0
    /// Whether `shutdown()` has begun (for tests).
    var isShuttingDown: Bool { phase == .shuttingDown || phase == .shutDown }
    /// This registry's exclusive use of its database file (`nil` in memory); released on shutdown or
    /// when the registry is deallocated.
    private nonisolated let databaseClaim: DatabaseFileClaim?

    /// Validates `configuration` and opens the registry's database, secret store and analytics queue.
    ///
    /// - Throws: `.invalidConfiguration` listing every problem, or when another live registry of this
    ///   process already uses the same database file; `.storage` or `.crypto` when the database or key
    ///   store cannot be opened.
    public init(configuration: EngageConfiguration, environment: RegistryEnvironment = RegistryEnvironment()) throws(EngageError) {
        try configuration.validate()
        self.configuration = configuration
        self.environment = environment
        self.events = EventBus()
        let database: EngageDatabase
        do {
            database = try EngageDatabase(
                location: configuration.storage, environment: environment.environmentVariables, clock: environment.clock
            )
        } catch {
            throw EngageError.wrapping(error)
        }
        var claim: DatabaseFileClaim?
        if let path = database.path {
            do {
                claim = try DatabaseFileClaim(path: path)
            } catch {
                try? database.close()
                throw error
            }
        }
        do {
            let secretStore =
                try environment.secretStore
                ?? SecretStores.platformDefault(
                    appID: configuration.appID, location: configuration.storage, environment: environment.environmentVariables
                )
            self.secretStore = secretStore
            sealer = try Sealer(store: secretStore, keyName: "engage.storage")
        } catch {
            claim?.release()
            try? database.close()
            throw EngageError.wrapping(error)
        }
        self.database = database
        self.databaseClaim = claim
        var queueLogger = environment.logger.configured(level: configuration.logLevel)
        queueLogger[metadataKey: "component"] = "analytics-queue"
        let events = self.events
        let consent = AnalyticsConsent(storage: database.coreStorage(), logger: queueLogger)
        self.consent = consent
        analytics = DurableQueue(
            database: database,
            policy: configuration.analytics.queuePolicy,
            clock: environment.clock,
            random: environment.random,
            logger: queueLogger,
            onDrop: { report in
                events.publish(
                    NamedEvent(
                        "analytics_events_dropped",
                        attributes: [
                            "destination": report.destination, "count": String(report.count), "reason": report.reason.rawValue,
                        ]))
            },
            consent: consent
        )
    }

    // MARK: - Registration

    /// Adds a provider. Before `start()` it starts with the others; on a started registry it is created
    /// and started now, and this returns once it runs (a `start()` in progress is waited for first).
    ///
    /// - Throws: `.duplicateProvider` for an id already registered, `.invalidConfiguration` for an
    ///   invalid id or configuration or error codes whose numbers clash (``EngageProvider/errorCodes``), `.providerStartFailed` (with the cause, also in `startReport`)
    ///   when a late provider fails to start, `.providerNotFound` once the registry is shutting down.
    public func register(_ registration: ProviderRegistration) async throws(EngageError) {
        let id = registration.descriptor.id
        try check(registration)
        if phase == .registering {
            registrations.append(registration)
            return
        }
        if let startTask { _ = await startTask.value }
        guard phase == .running else {
            throw EngageError(.providerNotFound, "The registry is shut down: '\(id)' cannot be added.", providerID: id)
        }
        // Checked again: another registration may have come in while the start finished.
        try check(registration)
        registrations.append(registration)
        try await startLate(registration)
    }

    /// Throws unless `registration` may be added (see ``register(_:)``).
    private func check(_ registration: ProviderRegistration) throws(EngageError) {
        let id = registration.descriptor.id
        guard id.isValid else {
            throw EngageError(
                .invalidConfiguration, "'\(id.rawValue.prefix(64))' is not a valid provider id.",
                recoverySuggestion: "Use lowercase letters, digits, '-' and '_', starting with a letter."
            )
        }
        guard id.rawValue != EngageDatabase.coreNamespace else {
            throw EngageError(
                .invalidConfiguration, "The provider id '\(id)' is reserved for EngageKit's own storage.", providerID: id,
                recoverySuggestion: "Choose another provider id."
            )
        }
        guard !registrations.contains(where: { $0.descriptor.id == id }) else {
            throw EngageError(.duplicateProvider, "A provider with id '\(id)' is already registered.", providerID: id)
        }
        if !registration.validationIssues.isEmpty {
            throw EngageError(
                .invalidConfiguration, "Invalid configuration: " + registration.validationIssues.joined(separator: " "),
                providerID: id, recoverySuggestion: "Fix the listed settings of the '\(id)' provider."
            )
        }
        // The provider's numbered error codes: a number another code has is refused with the provider.
        do {
            try EngageError.Code.register(registration.errorCodes)
        } catch {
            throw error.attributed(to: id)
        }
    }

    /// Creates and starts a provider registered after `start()`, and adds it to the running ones.
    private func startLate(_ registration: ProviderRegistration) async throws(EngageError) {
        let id = registration.descriptor.id
        do {
            let provider = try await registration.make(try makeContext(for: registration))
            do {
                try await provider.start()
            } catch {
                await provider.shutdown()
                throw error
            }
            guard phase == .running else {
                await provider.shutdown()
                throw EngageError(.providerNotFound, "The registry was shut down while '\(id)' was starting.", providerID: id)
            }
            running[id] = provider
            order.append(id)
            report.started.append(id)
            report.failures[id] = nil
            // Deliver what an earlier run of this provider left in the queue.
            await analytics.scheduleFlushSoon(after: .zero)
        } catch {
            let failure = EngageError.wrapping(error, providerID: id)
            registrations.removeAll { $0.descriptor.id == id }
            report.failures[id] = failure
            environment.logger.error("Provider failed to start", metadata: ["provider": "\(id)", "error": "\(failure)"])
            throw EngageError(
                .providerStartFailed, "The '\(id)' provider failed to start: \(failure.message)", providerID: id,
                isRetryable: failure.isRetryable, recoverySuggestion: failure.recoverySuggestion, underlyingError: failure
            )
        }
    }

    /// Stops and removes a running provider, as an app does when the user turns a feature off: its
    /// queued analytics are delivered first (best effort; what cannot be delivered stays queued for a
    /// later registration of the same provider), then it shuts down. Registering it again starts a new
    /// instance.
    ///
    /// - Throws: `.notConfigured` when no provider with `id` is registered.
    @discardableResult
    public func remove(_ id: ProviderID) async throws(EngageError) -> QueueFlushReport {
        if let startTask { _ = await startTask.value }
        guard registrations.contains(where: { $0.descriptor.id == id }) || refusedRegistrations[id] != nil else {
            throw EngageError(.notConfigured, "No provider '\(id)' is registered.", providerID: id)
        }
        let flush = await analytics.flush(provider: id)
        let provider = running.removeValue(forKey: id)
        order.removeAll { $0 == id }
        registrations.removeAll { $0.descriptor.id == id }
        refusedRegistrations[id] = nil
        report.started.removeAll { $0 == id }
        report.failures[id] = nil
        await provider?.shutdown()
        return flush
    }

    /// Records that `id`'s provider was not registered because its configuration is invalid:
    /// `start()` reports it among the failures and `provider(_:)` throws `.providerStartFailed` with
    /// this cause, while the other providers start.
    package func recordRefusedRegistration(_ error: EngageError, for id: ProviderID) {
        refusedRegistrations[id] = error.attributed(to: id)
    }

    /// Records configuration sections that no provider of this registry reads (a provider not compiled
    /// in, or a misspelt id): `start()` logs them and lists them in its report.
    package func recordUnusedSections(_ ids: [String]) {
        unusedSections = ids.sorted()
    }

    /// The settings of the configuration's JSON that nothing reads: the shared settings' (from the
    /// configuration) and those of every registered provider's section, in that order.
    private var unknownKeys: [String] {
        configuration.unknownKeys + registrations.flatMap(\.unknownKeys)
    }

    /// The ids registered so far, in order.
    public var registeredIDs: [ProviderID] { registrations.map(\.descriptor.id) }

    // MARK: - Lifecycle

    /// Creates every registered provider (concurrently), then starts them (concurrently), and starts
    /// the analytics queue's automatic flushing. Returns which providers run and which failed.
    ///
    /// Single flight: concurrent and later calls wait for the same start and return the same report.
    /// Called after `shutdown()` began, it starts nothing and reports every registered provider as
    /// failed.
    @discardableResult
    public func start() async -> RegistryStartReport {
        startCallCount += 1
        if let startTask { return await startTask.value }
        guard phase == .registering else {
            // Shut down before it ever started.
            return notStartedReport()
        }
        phase = .starting
        let task = Task { await self.performStart() }
        startTask = task
        return await task.value
    }

    /// The report of the last `start()`.
    public var startReport: RegistryStartReport { report }

    /// Shuts the registry down, in this order: waits for a `start()` in progress to finish; stops the
    /// analytics queue's automatic flushing and flushes it once (best effort, while the providers'
    /// deliverers are still registered), after which the queue stays stopped; then shuts every running
    /// provider down concurrently; finally releases the database file for another registry (the
    /// database stays open until `database.close()` or deallocation).
    ///
    /// Concurrent and later calls wait for the same shutdown.
    public func shutdown() async {
        if let shutdownTask { return await shutdownTask.value }
        let task = Task { await self.performShutdown() }
        shutdownTask = task
        await task.value
    }

    private func performStart() async -> RegistryStartReport {
        let created = await createProviders()
        var failures = created.failures
        var startFailures: [ProviderID: EngageError] = [:]
        if phase == .starting {
            startFailures = await startProviders(created)
        } else {
            // Shutdown was requested while the providers were being created: start none of them.
            for id in created.providers.keys {
                startFailures[id] = EngageError(
                    .providerStartFailed, "The registry was shut down before the provider could start.", providerID: id
                )
            }
        }
        failures.merge(startFailures) { first, _ in first }
        failures.merge(refusedRegistrations) { first, _ in first }
        for registration in registrations {
            let id = registration.descriptor.id
            guard failures[id] == nil, let provider = created.providers[id] else { continue }
            running[id] = provider
            order.append(id)
        }
        report = RegistryStartReport(started: order, failures: failures, unusedSections: unusedSections, unknownKeys: unknownKeys)
        for (id, error) in failures.sorted(by: { $0.key < $1.key }) {
            environment.logger.error("Provider failed to start", metadata: ["provider": "\(id)", "error": "\(error)"])
        }
        for key in unknownKeys {
            environment.logger.warning(
                "A configuration setting is read by nothing: it is ignored (a misspelt or retired setting)", metadata: ["key": "\(key)"])
        }
        for section in unusedSections {
            environment.logger.warning(
                "A configuration section names no provider of this build: it is ignored (a misspelt id, or a provider whose trait is off)",
                metadata: ["section": "\(section.prefix(64))"]
            )
        }
        // Providers that were created but did not start are shut down so they release resources.
        let unstarted = created.providers.filter { startFailures[$0.key] != nil }.map(\.value)
        await withTaskGroup(of: Void.self) { group in
            for provider in unstarted {
                group.addTask { await provider.shutdown() }
            }
        }
        // Re-checked after every suspension: a shutdown requested meanwhile must not be undone.
        if phase == .starting {
            await analytics.startAutomaticFlush()
        }
        if phase == .starting {
            phase = .running
        }
        return report
    }

    private func performShutdown() async {
        let neverStarted = phase == .registering
        phase = .shuttingDown
        if let startTask {
            _ = await startTask.value
        }
        if neverStarted {
            report = notStartedReport()
        }
        // Stop automatic flushing, then one last flush while the providers' deliverers are registered.
        let flush = await analytics.stop(flushFirst: true)
        if let flush, !flush.failures.isEmpty {
            environment.logger.warning(
                "The final analytics flush did not deliver everything",
                metadata: ["remaining": "\(flush.remaining)", "destinations": "\(flush.failures.keys.sorted())"]
            )
        }
        let providers = order.compactMap { running[$0] }
        running.removeAll()
        order.removeAll()
        await withTaskGroup(of: Void.self) { group in
            for provider in providers {
                group.addTask { await provider.shutdown() }
            }
        }
        phase = .shutDown
        databaseClaim?.release()
    }

    private func notStartedReport() -> RegistryStartReport {
        var failures: [ProviderID: EngageError] = [:]
        for registration in registrations {
            let id = registration.descriptor.id
            failures[id] = EngageError(
                .providerStartFailed, "The registry was shut down before it started.", providerID: id,
                recoverySuggestion: "Create a new registry."
            )
        }
        failures.merge(refusedRegistrations) { first, _ in first }
        return RegistryStartReport(started: [], failures: failures, unusedSections: unusedSections, unknownKeys: unknownKeys)
    }

    // MARK: - Access

    /// The running provider of type `type`.
    ///
    /// - Throws: `.notConfigured` if it was never registered, `.providerStartFailed` (with the cause)
    ///   if it failed to start, `.providerNotFound` after shutdown.
    public func provider<Provider: EngageProvider>(_ type: Provider.Type) throws(EngageError) -> Provider {
        let id = Provider.descriptor.id
        let provider = try provider(id: id)
        guard let typed = provider as? Provider else {
            throw EngageError(.providerNotFound, "The provider '\(id)' is not of type \(Provider.self).", providerID: id)
        }
        return typed
    }

    /// The running provider with `id`.
    public func provider(id: ProviderID) throws(EngageError) -> any EngageProvider {
        if let provider = running[id] { return provider }
        if let failure = report.failures[id] {
            throw EngageError(
                .providerStartFailed, "The '\(id)' provider failed to start: \(failure.message)", providerID: id,
                isRetryable: failure.isRetryable, recoverySuggestion: failure.recoverySuggestion, underlyingError: failure
            )
        }
        if phase == .shutDown || phase == .shuttingDown {
            throw EngageError(.providerNotFound, "The registry was shut down.", providerID: id)
        }
        if registrations.contains(where: { $0.descriptor.id == id }) {
            throw EngageError(
                .notConfigured, "The '\(id)' provider has not been started yet.", providerID: id, recoverySuggestion: "Call start() first.")
        }
        throw EngageError(
            .notConfigured, "The '\(id)' provider is not registered.", providerID: id,
            recoverySuggestion: "Enable its trait and add its configuration section, or register it explicitly."
        )
    }

    /// Running providers in registration order.
    public var providers: [any EngageProvider] { order.compactMap { running[$0] } }

    /// Running providers that adopt the protocol of the core `capability`, in registration order
    /// (none for a capability the core does not define: `Engage.fanOut` checks its own protocol).
    public func providers(with capability: ProviderCapability) -> [any EngageProvider] {
        order.compactMap { id in
            guard let provider = running[id], capability.isAdopted(by: provider) == true else { return nil }
            return provider
        }
    }

    // MARK: - Internals

    private struct Created: Sendable {
        var providers: [ProviderID: any EngageProvider] = [:]
        var failures: [ProviderID: EngageError] = [:]
    }

    private func createProviders() async -> Created {
        let contexts: [(ProviderRegistration, Result<ProviderContext, EngageError>)] = registrations.map { registration in
            (registration, Result { () throws(EngageError) -> ProviderContext in try makeContext(for: registration) })
        }
        return await withTaskGroup(of: (ProviderID, Result<any EngageProvider, EngageError>).self) { group in
            for (registration, context) in contexts {
                let id = registration.descriptor.id
                group.addTask {
                    switch context {
                    case let .failure(error):
                        return (id, .failure(error))
                    case let .success(context):
                        do {
                            // Bound first, then returned: Swift 6.3.1 with -O miscompiles the
                            // one-expression form `return (id, .success(try await ...))` in a task group.
                            let provider = try await registration.make(context)
                            return (id, .success(provider))
                        } catch {
                            return (id, .failure(EngageError.wrapping(error, providerID: id)))
                        }
                    }
                }
            }
            var created = Created()
            for await (id, result) in group {
                switch result {
                case let .success(provider): created.providers[id] = provider
                case let .failure(error): created.failures[id] = error
                }
            }
            return created
        }
    }

    private func startProviders(_ created: Created) async -> [ProviderID: EngageError] {
        await withTaskGroup(of: (ProviderID, EngageError?).self) { group in
            for (id, provider) in created.providers {
                group.addTask {
                    do {
                        try await provider.start()
                        return (id, nil)
                    } catch {
                        return (id, EngageError.wrapping(error, providerID: id))
                    }
                }
            }
            var failures: [ProviderID: EngageError] = [:]
            for await (id, error) in group {
                if let error { failures[id] = error }
            }
            return failures
        }
    }

    private func makeContext(for registration: ProviderRegistration) throws(EngageError) -> ProviderContext {
        let descriptor = registration.descriptor
        let storage: StorageNamespace
        do {
            storage = try database.namespace(descriptor.id.rawValue, migrations: registration.migrations, sealer: sealer)
        } catch {
            throw EngageError.wrapping(error, providerID: descriptor.id)
        }
        var logger = environment.logger.configured(level: configuration.logLevel)
        logger[metadataKey: "provider"] = "\(descriptor.id)"
        var context = ProviderContext(
            descriptor: descriptor, configuration: configuration, logger: logger, clock: environment.clock,
            random: environment.random, transport: environment.transport, storage: storage, database: database,
            secretStore: secretStore, sealer: sealer, events: events,
            analytics: analytics, consent: consent, connectivity: environment.connectivity
        )
        context.models = models
        return context
    }
}
