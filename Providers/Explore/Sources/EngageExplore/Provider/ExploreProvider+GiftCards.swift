@_exported import EngageExploreCTX
@_exported import EngageExploreGiftCards
#if PiggyCards
    @_exported import EngageExplorePiggyCards
#endif
import EngageCore

/// The gift-card sources this build has: CTX always, PiggyCards with the `PiggyCards` trait. The only
/// place where the trait decides what the Explore provider can sell; the provider's API is the same
/// either way.
enum BuiltInGiftCardSources {
    static let types: [any BuiltInGiftCardSource.Type] = {
        var types: [any BuiltInGiftCardSource.Type] = [CTXGiftCards.self]
        #if PiggyCards
            types.append(PiggyCardsGiftCards.self)
        #endif
        return types
    }()

    /// Creates the sources that `settings` configures, keyed by their id.
    static func make(settings: GiftCardSettings, context: ProviderContext) throws(EngageError) -> [ExploreGiftCardProviderID: any GiftCardSource] {
        var sources: [ExploreGiftCardProviderID: any GiftCardSource] = [:]
        for type in types {
            if let source = try make(type, settings: settings, context: context) { sources[type.id] = source }
        }
        return sources
    }

    private static func make<Source: BuiltInGiftCardSource>(
        _ type: Source.Type, settings: GiftCardSettings, context: ProviderContext
    ) throws(EngageError) -> Source? {
        guard let configuration = try settings.settings(of: type) else { return nil }
        return try Source(configuration: configuration, context: context)
    }
}

extension ExploreProvider {
    /// The configured gift-card source of `type`, whose operations sell the directory's gift cards
    /// (see ``GiftCardSource``).
    ///
    /// ```swift
    /// let ctx = try explore.giftCardSource(CTXGiftCards.self)
    /// let card = try await ctx.buyGiftCard(merchantID: merchantID, fiatAmount: 25)
    /// ```
    ///
    /// - Throws: `.notConfigured` when the configuration has no settings for the source.
    public func giftCardSource<Source: GiftCardSource>(_ type: Source.Type) throws(EngageError) -> Source {
        guard let source = giftCardSources[Source.id] as? Source else {
            throw EngageError(
                .notConfigured, "\(Source.id) gift cards are off: set their '\(Source.configurationKey)' settings.", providerID: .explore,
                recoverySuggestion: "Set ExploreConfiguration.giftCards[\(Source.self).self]."
            )
        }
        return source
    }

    /// The gift-card sources the configuration turned on, in the order they are read.
    public var configuredGiftCardSources: [ExploreGiftCardProviderID] {
        BuiltInGiftCardSources.types.map { $0.id }.filter { giftCardSources[$0] != nil }
    }

    /// Every purchased card kept in the sealed vault, whichever source sold it. Local: publishes no
    /// operation event.
    public func storedGiftCards() async throws(EngageError) -> [StoredGiftCard] {
        try await context.local { try giftCards.allCards() }
    }

    /// The callback form of ``storedGiftCards()``.
    @discardableResult
    public func storedGiftCards(completion: @escaping Completion<[StoredGiftCard]>) -> any EngageCancellable {
        context.callback(completion) { try await self.storedGiftCards() }
    }
}

extension ExploreProvider: Resettable {
    /// Forgets the user: signs out of every gift-card source and deletes every purchased card from the
    /// vault. The merchant directory is public data and stays.
    public func reset() async throws {
        try await context.perform("reset") {
            for source in giftCardSources.values {
                try await source.signOut()
            }
            try giftCards.removeAll()
        }
    }

    /// The callback form of ``reset()``.
    @discardableResult
    public func reset(completion: @escaping Completion<Void>) -> any EngageCancellable {
        context.callback(completion) { try await self.reset() }
    }
}
