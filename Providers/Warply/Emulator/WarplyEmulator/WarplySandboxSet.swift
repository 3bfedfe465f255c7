import EngageSandbox

/// What `engage-sandbox` and `engage-demo` serve for Warply: the emulator issuing tokens of the given
/// lifetime.
public enum WarplySandboxSet {
    /// A fresh emulator whose access tokens live `tokenLifetime`.
    public static func emulators(tokenLifetime: Duration) -> [any Emulator] {
        [WarplyEmulator(configuration: .init(accessTokenLifetime: tokenLifetime))]
    }
}
