#if Explore
    @_spi(EngageProvider) import EngageCore
    @_spi(EngageProvider) import EngageSandbox
    import Foundation
    import EngageExplore
    import EngageExploreCTX
    import ExploreEmulator

    /// What `engage-sandbox` and `engage-demo` serve for Explore: the directory feed with generated
    /// directories, CTX, and PiggyCards with its trait.
    public enum ExploreSandboxSet {
        /// Fresh emulators. CTX's cards and PiggyCards' orders count as paid after 2 s and are delivered 2 s
        /// later (no wallet pays in the sandbox); its access tokens live `tokenLifetime`. The feed is left out only when its
        /// temporary folder cannot be written.
        public static func emulators(tokenLifetime: Duration) -> [any Emulator] {
            var emulators: [any Emulator] = []
            if let feed = try? ExploreFeedEmulator.withGeneratedDirectories() { emulators.append(feed) }
            emulators.append(
                CTXEmulator(
                    configuration: .init(
                        accessTokenLifetime: tokenLifetime, fulfillmentDelay: .seconds(2), autoPayDelay: .seconds(2)
                    )))
            #if PiggyCards
                emulators.append(
                    PiggyCardsEmulator(
                        configuration: .init(processingDelay: .seconds(1), fulfillmentDelay: .seconds(2), autoPayDelay: .seconds(2))))
            #endif
            return emulators
        }

        /// Adds the provider's section for these emulators to `configuration`: `baseURL(id)` is where the
        /// sandbox serves the emulator `id` (throwing when it serves none).
        /// The directory syncs when the app asks (`syncsAutomatically: false`); CTX is the gift-card source.
        public static func configure(_ configuration: inout EngageConfiguration, baseURL: (String) throws -> URL) throws {
            var explore = ExploreConfiguration(feedURL: try baseURL("explore-feed"), syncsAutomatically: false)
            explore.giftCards[CTXGiftCards.self] = CTXConfiguration(baseURL: try baseURL("ctx"), clientID: "engage-sandbox")
            try configuration.setProvider(.explore, explore)
        }
    }
#endif
