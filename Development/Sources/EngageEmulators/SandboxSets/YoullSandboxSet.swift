#if Youll
    @_spi(EngageProvider) import EngageCore
    @_spi(EngageProvider) import EngageSandbox
    import Foundation
    import EngageYoull
    import YoullEmulator

    /// What `engage-sandbox` and `engage-demo` serve for Youll: the emulator issuing tokens of the given
    /// lifetime.
    public enum YoullSandboxSet {
        /// A fresh emulator whose access tokens live `tokenLifetime`.
        public static func emulators(tokenLifetime: Duration) -> [any Emulator] {
            [YoullEmulator(configuration: .init(tokenLifetime: tokenLifetime))]
        }

        /// Adds the provider's section for these emulators to `configuration`: `baseURL(id)` is where the
        /// sandbox serves the emulator `id` (throwing when it serves none).
        public static func configure(_ configuration: inout EngageConfiguration, baseURL: (String) throws -> URL) throws {
            let base = try baseURL("youll")
            try configuration.setProvider(
                .youll,
                YoullConfiguration(
                    graphQLEndpoint: base.appendingPathComponent("v1/graphql"), restBaseURL: base.appendingPathComponent("api/rest"),
                    extraLang: "en", appVersion: "1.0.0"
                ))
        }
    }
#endif
