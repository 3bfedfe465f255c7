@_spi(EngageProvider) import EngageCore
import Foundation

// The providers' observable models, read synchronously from the facade: `engage.warply.wallet` is there
// right after `Engage.configure(with:)`, before the providers started, and it is the object the
// provider's own `warply.wallet` returns (both are kept in the registry's model slots).

extension Engage {
    /// The models of `type`'s provider of this instance: they reach the provider once this instance
    /// has started it (a model's refresh waits for the start, at most the request timeout), and throw
    /// `.cancelled` once the instance is gone.
    func models<Provider: EngageProvider>(of type: Provider.Type) -> ProviderModels<Provider> {
        let resolver = ProviderResolver { [weak self] () async throws(EngageError) -> Provider in
            guard let self else {
                throw EngageError(.cancelled, "The Engage instance was shut down and released.", providerID: Provider.descriptor.id)
            }
            return try await self.provider(type)
        }
        return ProviderModels(slots: registry.models, resolver: resolver, events: events, configuration: configuration)
    }
}

#if Warply
    import EngageWarply

    extension Engage {
        /// Warply's observable models of this instance (the `wallet`), readable at once. Before Warply
        /// has started they are empty and a refresh waits for it; without Warply's section a refresh
        /// fails with `.notConfigured` in the model's `lastError`.
        public var warply: ProviderModels<WarplyProvider> { models(of: WarplyProvider.self) }
    }
#endif

#if Youll
    import EngageYoull

    extension Engage {
        /// Youll's observable models of this instance (the `currentUser`), readable at once. Before
        /// Youll has started they show a guest, and follow the session once it runs.
        public var youll: ProviderModels<YoullProvider> { models(of: YoullProvider.self) }
    }
#endif

#if Explore
    import EngageExplore

    extension Engage {
        /// The merchant explorer's observable models of this instance (the `directoryModel`), readable
        /// at once. Before Explore has started the directory shows the configured network and nothing
        /// installed, and follows the directory once Explore runs.
        public var explore: ProviderModels<ExploreProvider> { models(of: ExploreProvider.self) }
    }
#endif
