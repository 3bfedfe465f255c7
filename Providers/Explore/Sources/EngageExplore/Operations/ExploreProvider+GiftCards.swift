@_exported import EngageExploreCTX
@_exported import EngageExploreGiftCards
#if PiggyCards
    @_exported import EngageExplorePiggyCards
#endif
@_spi(EngageProvider) import EngageCore

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
    static func make(
        settings: GiftCardSettings, context: ProviderContext
    ) throws(EngageError) -> [ExploreGiftCardProviderID: any GiftCardSource] {
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
    /// (see `GiftCardSource`).
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
}

/// What ``ExploreProvider/recoverLostGiftCards()`` did: the cards fetched again, and those still lost
/// with the reason.
public struct GiftCardRecovery: Sendable {
    /// A lost card that could not be fetched again this time, and why (not signed in to its source,
    /// the source is off, the network failed, or the source returned the card without its secrets).
    public struct Failure: Sendable {
        /// The card, still listed by ``ExploreProvider/lostGiftCards()``.
        public var card: LostGiftCard
        /// Why it was not recovered; `isRetryable` when trying later may help.
        public var error: EngageError
    }

    /// The cards whose secrets came back and are sealed in the vault again.
    public var recovered: [StoredGiftCard]
    /// The cards still lost.
    public var failures: [Failure]
}

extension ExploreProvider {
    /// The purchased cards whose sealed secrets no longer open on this device (the database came back
    /// from a backup or another device without its key; see `LostGiftCard`). Local: publishes no
    /// operation event. ``recoverLostGiftCards()`` fetches them again.
    public func lostGiftCards() async throws(EngageError) -> [LostGiftCard] {
        try await context.local { try giftCards.lostCards() }
    }

    /// Fetches every lost card again from the source that sold it, which seals it in the vault anew.
    /// Each source needs its session: after a restore, sign in to the source first. A card that fails
    /// stays lost and is reported in ``GiftCardRecovery/failures``; the call itself fails only when the
    /// vault cannot be read.
    public func recoverLostGiftCards() async throws(EngageError) -> GiftCardRecovery {
        try await context.perform(ExploreOperation.recoverGiftCards) {
            var recovery = GiftCardRecovery(recovered: [], failures: [])
            for lost in try giftCards.lostCards() {
                do {
                    guard let source = giftCardSources[lost.provider] as? any BuiltInGiftCardSource else {
                        throw EngageError(
                            .notConfigured, "\(lost.provider) gift cards are off, so the lost card '\(lost.id)' cannot be fetched again.",
                            providerID: .explore
                        )
                    }
                    guard try await source.fetchAgain(cardID: lost.id), let card = try giftCards.card(provider: lost.provider, id: lost.id)
                    else {
                        throw EngageError(
                            .exploreGiftCardUnexpectedAnswer, "\(lost.provider) returned the card '\(lost.id)' without its secrets.",
                            providerID: .explore)
                    }
                    recovery.recovered.append(card)
                } catch is CancellationError {
                    throw EngageError(.cancelled, "Recovering the lost gift cards was cancelled.", providerID: .explore)
                } catch {
                    recovery.failures.append(GiftCardRecovery.Failure(card: lost, error: EngageError.wrapping(error, providerID: .explore)))
                }
            }
            return recovery
        }
    }
}

@_spi(EngageProvider) extension ExploreProvider: Resettable {
    /// Forgets the user: signs out of every gift-card source and deletes every purchased card from the
    /// vault. The merchant directory is public data and stays.
    public func reset() async throws {
        try await context.perform(ExploreOperation.reset) {
            for source in giftCardSources.values {
                try await source.signOut()
            }
            try giftCards.removeAll()
        }
    }
}
