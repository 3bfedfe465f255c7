#if Sovendus
    @_spi(EngageProvider) import EngageCore
    @_spi(EngageProvider) import EngageSandbox
    import Foundation
    import EngageSovendus
    import SovendusEmulator

    /// What `engage-sandbox` and `engage-demo` serve for Sovendus: the emulator with its seeded traffic
    /// source.
    public enum SovendusSandboxSet {
        /// A fresh emulator (Sovendus issues no tokens, so `tokenLifetime` does not apply).
        public static func emulators(tokenLifetime: Duration) -> [any Emulator] {
            [SovendusEmulator()]
        }

        /// Adds the provider's section for these emulators to `configuration`: `baseURL(id)` is where the
        /// sandbox serves the emulator `id` (throwing when it serves none).
        public static func configure(_ configuration: inout EngageConfiguration, baseURL: (String) throws -> URL) throws {
            try configuration.setProvider(.sovendus, SovendusEmulator().providerConfiguration(baseURL: baseURL("sovendus")))
        }
    }
#endif
