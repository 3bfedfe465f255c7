#if Warply
    @_spi(EngageProvider) import EngageCore
    @_spi(EngageProvider) import EngageSandbox
    import Foundation
    import EngageWarply
    import WarplyEmulator

    /// What `engage-sandbox` and `engage-demo` serve for Warply: the emulator issuing tokens of the given
    /// lifetime.
    public enum WarplySandboxSet {
        /// A fresh emulator whose access tokens live `tokenLifetime`.
        public static func emulators(tokenLifetime: Duration) -> [any Emulator] {
            [WarplyEmulator(configuration: .init(accessTokenLifetime: tokenLifetime))]
        }

        /// Adds the provider's section for these emulators to `configuration`: `baseURL(id)` is where the
        /// sandbox serves the emulator `id` (throwing when it serves none). Links to the emulator's campaign
        /// pages (their `index_url`) are routed to Warply as `.campaign` links.
        public static func configure(_ configuration: inout EngageConfiguration, baseURL: (String) throws -> URL) throws {
            var warply = WarplyConfiguration.preset(.development, appUUID: "f83dfde1145e4c2da69793abb2f579af")
            warply.environment = .custom(try baseURL("warply"))
            warply.language = .english
            try configuration.setProvider(.warply, warply)
            configuration.links.routes.append(
                LinkRoute(provider: .warply, destination: .campaign, template: WarplyEmulator.campaignPageTemplate))
        }
    }
#endif
