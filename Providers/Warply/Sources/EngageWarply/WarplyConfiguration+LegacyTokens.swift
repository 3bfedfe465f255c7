@_spi(EngageProvider) import EngageCore
import Foundation

extension WarplyConfiguration {
    /// The keys of the `tokens` section that configurations written for EngageKit before the `auth`
    /// override still carry. Each is read into the override under its one current name:
    ///
    /// | legacy key | current key (`auth`) |
    /// |---|---|
    /// | `tokens.refreshThresholdSeconds` | `proactiveRefreshSeconds` |
    /// | `tokens.circuitBreakerThreshold` | `breakerFailureThreshold` |
    /// | `tokens.circuitBreakerResetSeconds` | `breakerCooldownSeconds` |
    ///
    /// `tokens.refreshAttempts` and `tokens.refreshRetryDelaysSeconds` are accepted and ignored: a
    /// refresh that may have reached the server is never sent again (its refresh token rotated).
    enum LegacyTokenKeys: String, CodingKey {
        case refreshThresholdSeconds, circuitBreakerThreshold, circuitBreakerResetSeconds
    }

    /// `base` with the legacy `tokens` keys present in `decoder` applied.
    static func authSettings(fromLegacyTokens decoder: any Decoder, base: AuthSettings) throws -> AuthSettings {
        let container = try decoder.container(keyedBy: LegacyTokenKeys.self)
        var settings = base
        settings.proactiveRefreshSeconds =
            try container.decodeIfPresent(Double.self, forKey: .refreshThresholdSeconds)
            ?? settings.proactiveRefreshSeconds
        settings.breakerFailureThreshold =
            try container.decodeIfPresent(Int.self, forKey: .circuitBreakerThreshold)
            ?? settings.breakerFailureThreshold
        settings.breakerCooldownSeconds =
            try container.decodeIfPresent(Double.self, forKey: .circuitBreakerResetSeconds)
            ?? settings.breakerCooldownSeconds
        return settings
    }
}
