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

    extension SovendusEmulator {
        /// A provider configuration pointing every Sovendus URL (script, redemption, telemetry,
        /// benefits) at the emulator served at `baseURL`, with its traffic numbers and medium id.
        public func providerConfiguration(baseURL: URL) -> SovendusConfiguration {
            SovendusConfiguration(
                trafficSourceNumber: configuration.trafficSourceNumber, trafficMediumNumber: configuration.trafficMediumNumber,
                trafficMediumPublicID: configuration.trafficMediumPublicID,
                scriptURL: baseURL.appendingPathComponent(Self.scriptPath), redemptionBaseURL: baseURL, telemetryBaseURL: baseURL,
                benefitsBaseURL: baseURL
            )
        }
    }
#endif
