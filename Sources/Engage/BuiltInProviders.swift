#if Crobox
    @_exported import EngageCrobox
#endif
#if Warply
    @_exported import EngageWarply
#endif
#if Explore
    @_exported import EngageExplore
#endif

extension Engage {
    /// The providers compiled into this build by package traits, in a fixed order.
    ///
    /// Each built-in provider is listed here under its trait, for example:
    ///
    /// ```swift
    /// #if Crobox
    ///     factories.append(ProviderFactory(CroboxProvider.self))
    /// #endif
    /// ```
    ///
    /// A provider module joins this list in the change that adds it to `Providers/` and to the package
    /// manifest's provider catalogue.
    public static let builtInProviders: [ProviderFactory] = {
        var factories: [ProviderFactory] = []
        #if Crobox
            factories.append(ProviderFactory(CroboxProvider.self))
        #endif
        #if Warply
            factories.append(ProviderFactory(WarplyProvider.self))
        #endif
        #if Explore
            factories.append(ProviderFactory(ExploreProvider.self))
        #endif
        return factories
    }()

    /// The provider traits this build was compiled with, e.g. `["Crobox", "Warply"]`.
    public static let enabledProviderTraits: [String] = {
        var traits: [String] = []
        #if Crobox
            traits.append("Crobox")
        #endif
        #if Explore
            traits.append("Explore")
        #endif
        #if PiggyCards
            traits.append("PiggyCards")
        #endif
        #if Sovendus
            traits.append("Sovendus")
        #endif
        #if Warply
            traits.append("Warply")
        #endif
        #if Youll
            traits.append("Youll")
        #endif
        return traits
    }()
}
