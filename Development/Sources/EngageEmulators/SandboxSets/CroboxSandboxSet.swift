#if Crobox
    @_spi(EngageProvider) import EngageCore
    @_spi(EngageProvider) import EngageSandbox
    import Foundation
    import CroboxEmulator
    import EngageCrobox

    /// What `engage-sandbox` and `engage-demo` serve for Crobox: the emulator with its default catalogue.
    public enum CroboxSandboxSet {
        /// A fresh emulator (Crobox issues no tokens, so `tokenLifetime` does not apply).
        public static func emulators(tokenLifetime: Duration) -> [any Emulator] {
            [CroboxEmulator()]
        }

        /// Adds the provider's section for these emulators to `configuration`: `baseURL(id)` is where the
        /// sandbox serves the emulator `id` (throwing when it serves none).
        public static func configure(_ configuration: inout EngageConfiguration, baseURL: (String) throws -> URL) throws {
            try configuration.setProvider(
                .crobox,
                CroboxConfiguration(
                    containerID: "xlrc9t", baseURL: baseURL("crobox"), locale: "en_US", currency: "EUR"
                ))
        }
    }
#endif
