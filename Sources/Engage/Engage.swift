@_spi(EngageProvider) import EngageCore
@_exported import EngageCore
import Foundation
import Logging

/// The EngageKit facade: one object that starts every configured provider and exposes their
/// capabilities together.
///
/// **Starting.** An app configures the shared instance once, at launch, and reads it anywhere after:
///
/// ```swift
/// import Engage
///
/// // application(_:didFinishLaunchingWithOptions:), or the App's init
/// var configuration = EngageConfiguration.preset(.production, appID: "com.example.shop")
/// configuration.providers["crobox"] = ["containerID": "xlrc9t"]
/// try Engage.configure(with: configuration)  // returns at once; providers start in the background
///
/// // anywhere later: calls wait for readiness
/// let offers = try await Engage.shared.offers(OfferQuery(productIDs: ["sku-1"], placementID: "14"))
/// for failure in offers.report.failures { log(failure) }      // partial failures are reported
///
/// Engage.shared.offers(OfferQuery()) { result in ... }        // the same, with a callback
/// ```
///
/// Tests, scripts and multi-tenant apps make their own instances with
/// ``init(configuration:providers:)`` (no shared state; `await engage.waitUntilReady()` waits for the start).
/// Built-in providers are compiled in by package traits and start when
/// the configuration has a section for them; third-party providers are passed in `providers`.
///
/// **Readiness.** Every instance starts its providers in the background. Operations called meanwhile
/// wait for them (at most the configured request timeout); events tracked meanwhile are stored
/// durably at once and handed to the providers when they are ready. ``waitUntilReady()`` waits and returns the
/// start report, and the bus publishes `engage_ready` (a `NamedEvent` with the started and failed
/// provider ids).
public final class Engage: Sendable {
    /// The EngageKit release this build is, as `major.minor.patch`: the newest version section of the
    /// package's `CHANGELOG.md` (a test holds the two together). Quote it in a support request, or send
    /// it in a header or analytics property of your own.
    public static let version = "0.9.0"

    /// The registry holding the running providers.
    @_spi(EngageProvider) public let registry: ProviderRegistry
    private let started: Task<RegistryStartReport, Never>
    private let readyReport = Locked<RegistryStartReport?>(nil)
    /// Flushes the queue when the app moves to the background; stopped by ``shutdown()``.
    private let backgroundFlush: BackgroundFlush?
    /// Whether this is the stand-in `Engage.shared` returns before `configure`: every operation fails
    /// with `.notConfigured`.
    let isUnconfiguredStandIn: Bool
    /// The state snapshot and its subscribers (``stateUpdates``, ``state``).
    let stateTracker: StateTracker
    /// Follows the queue's pending counts into the state, from the first subscriber on.
    let pendingCountsTask = Locked<Task<Void, Never>?>(nil)
    /// Announces readiness once the providers started (the state, `engage_ready`, the events tracked
    /// meanwhile handed over); ``start(configuration:providers:environment:)`` waits for it.
    private let announcement = Locked<Task<Void, Never>?>(nil)
    /// The observable ``state`` object, made on first use.
    let observableState = MemoizedObject()

    private init(registry: ProviderRegistry, started: Task<RegistryStartReport, Never>, isUnconfiguredStandIn: Bool = false) {
        self.registry = registry
        self.started = started
        self.isUnconfiguredStandIn = isUnconfiguredStandIn
        stateTracker = StateTracker(EngageStateSnapshot(isAnalyticsEnabled: !isUnconfiguredStandIn && registry.consent.isEnabled(for: nil)))
        let analytics = registry.analytics
        backgroundFlush =
            registry.configuration.analytics.flushesOnBackground
            ? BackgroundFlush(center: registry.environment.notificationCenter) { await analytics.flush() }
            : nil
    }

    /// Waits until every provider has started or failed, and returns the start report: which started,
    /// which failed and why, and the configuration sections no provider reads. Returns at once after
    /// the first time; never throws (a failed provider is in the report, the others run).
    ///
    /// ```swift
    /// let report = await engage.waitUntilReady()
    /// for (provider, error) in report.failures { logger.error("\(provider): \(error)") }
    /// ```
    public func waitUntilReady() async -> RegistryStartReport {
        if let report = readyReport.value { return report }
        let report = await started.value
        readyReport.withLock { $0 = report }
        return report
    }

    /// Waits until the providers have started and returns which started and which failed.
    @available(*, deprecated, renamed: "waitUntilReady()")
    public func ready() async -> RegistryStartReport {
        await waitUntilReady()
    }

    /// Whether the providers have started (``waitUntilReady()`` would return at once).
    public var isReady: Bool { readyReport.value != nil }

    /// Waits for readiness, at most the configured request timeout on the registry's clock: an
    /// operation called right after ``configure(with:providers:environment:)`` runs once the
    /// providers can take it. A cancelled caller stops waiting at once; the start goes on.
    func awaitStart(for operation: String) async throws(EngageError) {
        try refuseIfUnconfigured(operation)
        if isReady { return }
        let limit = configuration.network.timeout
        let waiting = Task<RegistryStartReport, any Error> { await self.waitUntilReady() }
        do {
            _ = try await waiting.valueUnlessCancelled(timeout: (registry.environment.clock, limit))
        } catch {
            let failure = EngageError.wrapping(error)
            guard failure.code == .timeout else { throw failure }
            throw EngageError(
                .timeout, "EngageKit was still starting its providers after \(limit) (needed by \(operation)).", isRetryable: true,
                recoverySuggestion: "Call it again, or await engage.waitUntilReady() first."
            )
        }
    }

    /// Throws `.notConfigured` on the stand-in `Engage.shared` returns before `configure`.
    func refuseIfUnconfigured(_ operation: String) throws(EngageError) {
        guard isUnconfiguredStandIn else { return }
        throw Self.notConfigured(operation)
    }

    /// The error of an operation on the stand-in.
    static func notConfigured(_ operation: String) -> EngageError {
        EngageError(
            .notConfigured, "Engage.shared was used (\(operation)) before Engage.configure(with:) returned.",
            recoverySuggestion:
                "Call Engage.configure(with:) in application(_:didFinishLaunchingWithOptions:) (or your App's init) before using Engage.shared; check Engage.isConfigured where the order is not certain."
        )
    }

    /// The stand-in `Engage.shared` returns before `configure`: an in-memory registry with no
    /// providers, whose start report lists the failure `.notConfigured`. Every operation refuses
    /// before touching it.
    convenience init(unconfiguredStandIn: Void) {
        let report = RegistryStartReport(started: [], failures: ["engage": Self.notConfigured("ready")])
        var configuration = EngageConfiguration(appID: "engagekit.unconfigured")
        configuration.storage = .inMemory
        configuration.analytics.flushesOnBackground = false
        var environment = RegistryEnvironment()
        environment.secretStore = InMemorySecretStore()
        // An in-memory database and key store: nothing can be missing or refused but memory itself.
        let registry: ProviderRegistry
        do {
            registry = try ProviderRegistry(configuration: configuration, environment: environment)
        } catch {
            preconditionFailure("EngageKit could not open an in-memory database for Engage.shared's stand-in: \(error)")
        }
        self.init(registry: registry, started: Task { report }, isUnconfiguredStandIn: true)
    }

    /// The event bus: operation events, session events, provider events.
    public var events: EventBus { registry.events }

    /// The configuration the instance started with.
    public var configuration: EngageConfiguration { registry.configuration }

    // MARK: - Starting, for apps (production services)

    /// An instance whose providers start in the background (see "Readiness" above), with the platform's
    /// services; ``init(configuration:providers:environment:)`` injects others.
    public convenience init(configuration: EngageConfiguration, providers: [ProviderRegistration] = []) throws(EngageError) {
        try self.init(configuration: configuration, providers: providers, environment: RegistryEnvironment())
    }

    /// Creates an instance that starts in the background and makes it ``shared``, returning at once:
    /// the call an app makes in `application(_:didFinishLaunchingWithOptions:)` or its `App`'s `init`.
    /// Operations on `Engage.shared` wait for the providers' start; ``isConfigured`` is `true` from now on.
    ///
    /// ```swift
    /// try Engage.configure(with: .preset(.production, appID: "com.example.shop"))
    /// ```
    ///
    /// - Throws: `.alreadyConfigured` when it was called already, `.invalidConfiguration` for invalid
    ///   shared settings, `.storage` when the database cannot be opened. A provider's own bad section
    ///   or failed start does not throw: it is in ``waitUntilReady()``'s `failures`.
    @discardableResult
    public static func configure(
        with configuration: EngageConfiguration, providers: [ProviderRegistration] = []
    ) throws(EngageError) -> Engage {
        try configure(with: configuration, providers: providers, environment: RegistryEnvironment())
    }

    /// Creates an instance that starts in the background and makes it ``shared``: the former name of
    /// ``configure(with:providers:)``.
    @available(*, deprecated, renamed: "configure(with:providers:)")
    @discardableResult
    public static func configure(configuration: EngageConfiguration, providers: [ProviderRegistration] = []) throws(EngageError) -> Engage {
        try configure(with: configuration, providers: providers, environment: RegistryEnvironment())
    }

    // MARK: - Starting

    /// ``init(configuration:providers:environment:)`` followed by ``waitUntilReady()``: an instance
    /// whose providers have started (or failed to), whose `engage_ready` event is published and whose
    /// ``state`` says so when it is returned, for tests and tools that want to begin with a started
    /// instance. There is one start path; this only waits for it.
    ///
    /// A provider that fails to start does not fail the call, nor does an invalid section of one
    /// provider's configuration: that provider is in the report's `failures` (the error names the
    /// setting) and the others start. Sections that no provider reads (a misspelt id, a provider whose
    /// trait is off) are in its `unusedSections` and logged. The call throws what the initialiser
    /// throws: invalid shared settings, a provider passed twice, or storage that cannot be opened (or
    /// is used by another live registry).
    @_spi(EngageProvider) public static func start(
        configuration: EngageConfiguration,
        providers: [ProviderRegistration] = [],
        environment: RegistryEnvironment
    ) async throws(EngageError) -> Engage {
        let engage = try Engage(configuration: configuration, providers: providers, environment: environment)
        _ = await engage.waitUntilReady()
        await engage.announcement.value?.value
        return engage
    }

    /// An instance whose providers start in the background: returns at once (see "Readiness" above).
    ///
    /// The shared settings are validated and the database opened here, so this throws what
    /// ``start(configuration:providers:environment:)`` throws for them, and for two third-party
    /// providers with the same id; everything else (a provider's bad section, a failed start) is in
    /// the report ``waitUntilReady()`` returns.
    @_spi(EngageProvider) public convenience init(
        configuration: EngageConfiguration,
        providers: [ProviderRegistration] = [],
        environment: RegistryEnvironment
    ) throws(EngageError) {
        var seen = Set<ProviderID>()
        for registration in providers where !seen.insert(registration.descriptor.id).inserted {
            throw EngageError(
                .duplicateProvider, "A provider with id '\(registration.descriptor.id)' is passed twice.",
                providerID: registration.descriptor.id)
        }
        let registry = try ProviderRegistry(configuration: configuration, environment: environment)
        let staging = StagedEventsDeliverer()
        let started = Task {
            await Engage.registerAll(in: registry, configuration: configuration, providers: providers)
            let report = await registry.start()
            // Only now: a flush before this point leaves the staged events queued (see the deliverer).
            do {
                try await registry.analytics.register(destination: StagedEventsDeliverer.destination, deliverer: staging)
            } catch {
                registry.environment.logger.error(
                    "The events tracked before readiness cannot be handed over", metadata: ["error": "\(EngageError.wrapping(error).code)"])
            }
            return report
        }
        self.init(registry: registry, started: started)
        staging.engage.withLock { $0 = WeakEngage(self) }
        let engage = WeakEngage(self)
        let announcing = Task {
            guard let report = await engage.value?.started.value else { return }
            engage.value?.announceReady(report)
            // Hand the events tracked meanwhile to the providers (waits for a flush in progress).
            await engage.value?.registry.analytics.flush(destination: StagedEventsDeliverer.destination)
        }
        announcement.withLock { $0 = announcing }
    }

    /// Creates ``init(configuration:providers:environment:)``'s instance and makes it `Engage.shared`,
    /// returning at once: the call an app makes in `application(_:didFinishLaunchingWithOptions:)`.
    ///
    /// - Throws: `.alreadyConfigured` when `Engage.shared` exists already, or what the initialiser throws.
    @discardableResult
    @_spi(EngageProvider) public static func configure(
        with configuration: EngageConfiguration,
        providers: [ProviderRegistration] = [],
        environment: RegistryEnvironment
    ) throws(EngageError) -> Engage {
        try sharedInstance.reserve()
        let engage: Engage
        do {
            engage = try Engage(configuration: configuration, providers: providers, environment: environment)
        } catch {
            sharedInstance.abandon()
            throw error
        }
        sharedInstance.fulfil(engage)
        return engage
    }

    /// The former name of ``configure(with:providers:environment:)``.
    @available(*, deprecated, renamed: "configure(with:providers:environment:)")
    @discardableResult
    @_spi(EngageProvider) public static func configure(
        configuration: EngageConfiguration,
        providers: [ProviderRegistration] = [],
        environment: RegistryEnvironment
    ) throws(EngageError) -> Engage {
        try configure(with: configuration, providers: providers, environment: environment)
    }

    /// Records the report and publishes `engage_ready`.
    private func announceReady(_ report: RegistryStartReport) {
        readyReport.withLock { $0 = report }
        stateTracker.update { state in
            state.isReady = true
            state.startedProviders = report.started
            state.failedProviders = report.failures
        }
        events.publish(
            NamedEvent(
                "engage_ready",
                attributes: [
                    "started": report.started.map(\.rawValue).joined(separator: ","),
                    "failed": report.failures.keys.map(\.rawValue).sorted().joined(separator: ","),
                ]))
    }

    /// Registers every compiled-in provider that has a configuration section, then `providers`, and
    /// records the sections no provider reads. A provider that cannot be registered is recorded for
    /// the start report and the others are registered.
    private static func registerAll(
        in registry: ProviderRegistry, configuration: EngageConfiguration, providers: [ProviderRegistration]
    ) async {
        let thirdPartyIDs = Set(providers.map(\.descriptor.id))
        for factory in builtInProviders where configuration.providers[factory.descriptor.id.rawValue] != nil {
            guard !thirdPartyIDs.contains(factory.descriptor.id) else { continue }
            await registerOrRecord(factory.descriptor.id, in: registry) { () throws(EngageError) in
                try factory.registration(from: configuration)
            }
        }
        for registration in providers {
            await registerOrRecord(registration.descriptor.id, in: registry) { () throws(EngageError) in registration }
        }
        let read = Set(builtInProviders.map(\.descriptor.id.rawValue)).union(thirdPartyIDs.map(\.rawValue))
        await registry.recordUnusedSections(configuration.providers.keys.filter { !read.contains($0) })
    }

    /// Registers the provider `make` describes; what refuses it (its section does not decode or fails
    /// validation, its id is invalid or reserved) is recorded for the start report under its id.
    private static func registerOrRecord(
        _ id: ProviderID, in registry: ProviderRegistry, _ make: () throws(EngageError) -> ProviderRegistration
    ) async {
        do {
            try await registry.register(try make())
        } catch {
            await registry.recordRefusedRegistration(error, for: id)
        }
    }

    /// Shuts the instance down (see `ProviderRegistry.shutdown()`): waits for a start in progress,
    /// flushes the analytics queue once and stops it, then shuts every provider down concurrently.
    public func shutdown() async {
        backgroundFlush?.stop()
        pendingCountsTask.withLock { $0 }?.cancel()
        await registry.shutdown()
        stateTracker.finish()
    }

    // MARK: - Typed access

    /// The running provider of type `type`, to call its own operations.
    ///
    /// - Throws: `.notConfigured` when the provider is not compiled in or has no configuration,
    ///   `.providerStartFailed` with the cause when it failed to start.
    public func provider<Provider: EngageProvider>(_ type: Provider.Type) async throws(EngageError) -> Provider {
        try await awaitStart(for: "provider(\(Provider.descriptor.id))")
        return try await registry.provider(type)
    }
}
