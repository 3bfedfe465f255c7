@_exported import EngageCore
import Foundation

/// The EngageKit facade: one object that starts every configured provider and exposes their
/// capabilities together.
///
/// ```swift
/// import Engage
///
/// var configuration = EngageConfiguration.preset(.production, appID: "com.example.shop")
/// configuration.providers["crobox"] = ["containerID": "xlrc9t"]
/// let engage = try await Engage.start(configuration: configuration)
///
/// let offers = try await engage.offers(OfferQuery(productIDs: ["sku-1"]))
/// for failure in offers.report.failures { log(failure) }      // partial failures are reported
///
/// engage.offers(OfferQuery()) { result in ... }                // the same, with a callback
/// let token = engage.events.subscribe(to: OperationEvent.self) { print($0.name) }
/// ```
///
/// Built-in providers are compiled in by package traits (see `Engage.builtInProviders`) and start when
/// the configuration has a section for them; third-party providers are passed to `start` explicitly.
public final class Engage: Sendable {
    /// The registry holding the running providers.
    public let registry: ProviderRegistry
    /// Which providers started and which failed.
    public let startReport: RegistryStartReport

    init(registry: ProviderRegistry, startReport: RegistryStartReport) {
        self.registry = registry
        self.startReport = startReport
    }

    /// The event bus: operation events, session events, provider events.
    public var events: EventBus { registry.events }

    /// The configuration the instance started with.
    public var configuration: EngageConfiguration { registry.configuration }

    var callbackQueue: CallbackQueue { registry.environment.callbackQueue }

    // MARK: - Starting

    /// Creates a registry, registers every compiled-in provider that has a configuration section plus
    /// `providers`, and starts them all concurrently.
    ///
    /// A provider that fails to start does not fail the call, nor does an invalid section of one
    /// provider's configuration: that provider is in `startReport.failures` (the error names the
    /// setting) and the others start. Sections that no provider reads (a misspelt id, a provider whose
    /// trait is off) are in `startReport.unusedSections` and logged. The call throws only for invalid
    /// shared settings, an invalid or duplicate provider id, or storage that cannot be opened (or is
    /// used by another live registry); the registry created so far is then shut down and its database
    /// closed.
    public static func start(
        configuration: EngageConfiguration,
        providers: [ProviderRegistration] = [],
        environment: RegistryEnvironment = RegistryEnvironment()
    ) async throws(EngageError) -> Engage {
        let registry = try ProviderRegistry(configuration: configuration, environment: environment)
        do {
            let thirdPartyIDs = Set(providers.map(\.descriptor.id))
            for factory in builtInProviders where configuration.providers[factory.descriptor.id.rawValue] != nil {
                guard !thirdPartyIDs.contains(factory.descriptor.id) else { continue }
                try await registerOrRecord(factory.descriptor.id, in: registry) { () throws(EngageError) in try factory.registration(from: configuration) }
            }
            for registration in providers {
                try await registerOrRecord(registration.descriptor.id, in: registry) { () throws(EngageError) in registration }
            }
            let read = Set(builtInProviders.map(\.descriptor.id.rawValue)).union(thirdPartyIDs.map(\.rawValue))
            await registry.recordUnusedSections(configuration.providers.keys.filter { !read.contains($0) })
        } catch {
            // Nothing started yet: release the database (and its file) before reporting the problem.
            await registry.shutdown()
            try? registry.database.close()
            throw error
        }
        let report = await registry.start()
        return Engage(registry: registry, startReport: report)
    }

    /// Registers the provider `make` describes; an invalid configuration of that provider (its section
    /// does not decode or fails validation) is recorded for the start report instead of thrown.
    private static func registerOrRecord(
        _ id: ProviderID, in registry: ProviderRegistry, _ make: () throws(EngageError) -> ProviderRegistration
    ) async throws(EngageError) {
        do {
            try await registry.register(try make())
        } catch {
            guard error.code == .invalidConfiguration, error.providerID == id, id.isValid, id.rawValue != EngageDatabase.coreNamespace else { throw error }
            await registry.recordRefusedRegistration(error, for: id)
        }
    }

    /// The callback twin of `start(configuration:providers:environment:)`.
    @discardableResult
    public static func start(
        configuration: EngageConfiguration,
        providers: [ProviderRegistration] = [],
        environment: RegistryEnvironment = RegistryEnvironment(),
        completion: @escaping @Sendable (Result<Engage, EngageError>) -> Void
    ) -> any Cancellable {
        CallbackBridge.run(on: environment.callbackQueue, completion: completion) {
            try await start(configuration: configuration, providers: providers, environment: environment)
        }
    }

    /// Shuts the instance down (see `ProviderRegistry.shutdown()`): waits for a start in progress,
    /// flushes the analytics queue once and stops it, then shuts every provider down concurrently.
    public func shutdown() async {
        await registry.shutdown()
    }

    /// The callback twin of `shutdown()`.
    @discardableResult
    public func shutdown(completion: @escaping @Sendable (Result<Void, EngageError>) -> Void) -> any Cancellable {
        CallbackBridge.run(on: callbackQueue, completion: completion) { await self.shutdown() }
    }

    // MARK: - Typed access

    /// The running provider of type `type`, to call its own operations.
    ///
    /// - Throws: `.notConfigured` when the provider is not compiled in or has no configuration,
    ///   `.providerStartFailed` with the cause when it failed to start.
    public func provider<Provider: EngageProvider>(_ type: Provider.Type) async throws(EngageError) -> Provider {
        try await registry.provider(type)
    }

    /// The callback twin of `provider(_:)`.
    @discardableResult
    public func provider<Provider: EngageProvider>(
        _ type: Provider.Type, completion: @escaping @Sendable (Result<Provider, EngageError>) -> Void
    ) -> any Cancellable {
        CallbackBridge.run(on: callbackQueue, completion: completion) { try await self.provider(type) }
    }
}
