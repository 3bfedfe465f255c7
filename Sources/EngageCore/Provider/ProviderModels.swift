/// The observable models of one registry, by key (`"warply.wallet"`): each made on first use and the
/// same object on every later read, whether it was read through its provider (`warply.wallet`) or
/// through the facade before the providers started (`engage.warply.wallet`).
package final class ModelSlots: Sendable {
    private let slots = Locked<[String: any Sendable]>([:])

    /// No model yet.
    package init() {}

    /// The model under `key`, or `make()`'s, stored. When two threads race, one model wins and both get
    /// it. A key holds one type.
    package func value<Model: Sendable>(_ key: String, orMake make: () -> Model) -> Model {
        if let existing = slots.withLock({ $0[key] }) as? Model { return existing }
        let made = make()
        return slots.withLock { slots in
            if let existing = slots[key] as? Model { return existing }
            slots[key] = made
            return made
        }
    }
}

/// How an observable model reaches its provider: the provider itself, for a model the provider made;
/// or a wait for the instance's start, for a model read from the facade at once (`engage.warply.wallet`
/// right after `Engage.configure(with:)`), which then shows the provider's state once it has started.
package final class ProviderResolver<Provider: EngageProvider>: Sendable {
    private let resolve: @Sendable () async throws(EngageError) -> Provider
    private let resolved: Locked<Provider?>

    /// The running `provider`.
    package init(_ provider: Provider) {
        resolved = Locked(provider)
        resolve = { provider }
    }

    /// The provider `resolve` waits for (it throws what the start of the provider threw).
    package init(waitingFor resolve: @escaping @Sendable () async throws(EngageError) -> Provider) {
        resolved = Locked(nil)
        self.resolve = resolve
    }

    /// The provider, if it has been reached already.
    package var ifResolved: Provider? { resolved.value }

    /// The provider: at once when it was reached before, else after the wait.
    package func provider() async throws(EngageError) -> Provider {
        if let provider = resolved.value { return provider }
        let provider = try await resolve()
        resolved.withLock { $0 = provider }
        return provider
    }
}

/// A provider's observable models of one `Engage` instance, read synchronously: `engage.warply` is
/// `ProviderModels<WarplyProvider>`, whose `wallet` exists at once, also while the providers are still
/// starting (it fills once the provider runs), and is the object the provider's own property returns.
/// Each provider module adds its models to it (`wallet`, `currentUser`, `directoryModel`).
public struct ProviderModels<Provider: EngageProvider>: Sendable {
    /// Where the registry keeps its models.
    package let slots: ModelSlots
    /// How a model reaches the provider.
    package let resolver: ProviderResolver<Provider>
    /// The registry's event bus, which the models follow.
    package let events: EventBus
    /// The instance's configuration (a model shows the configured values until the provider runs).
    package let configuration: EngageConfiguration

    /// The models of the instance whose registry keeps `slots`, reaching the provider through
    /// `resolver`.
    package init(slots: ModelSlots, resolver: ProviderResolver<Provider>, events: EventBus, configuration: EngageConfiguration) {
        self.slots = slots
        self.resolver = resolver
        self.events = events
        self.configuration = configuration
    }

    /// The models of the running `provider`, whose context is `context`.
    package init(_ provider: Provider, context: ProviderContext) {
        self.init(slots: context.models, resolver: ProviderResolver(provider), events: context.events, configuration: context.configuration)
    }

    /// The model under `key` (`"warply.wallet"`), or `make()`'s, kept for every later read.
    package func model<Model: Sendable>(_ key: String, orMake make: () -> Model) -> Model {
        slots.value(key, orMake: make)
    }
}
