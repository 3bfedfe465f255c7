import EngageSandbox

/// What `engage-sandbox` and `engage-demo` serve for Crobox: the emulator with its default catalogue.
public enum CroboxSandboxSet {
    /// A fresh emulator (Crobox issues no tokens, so `tokenLifetime` does not apply).
    public static func emulators(tokenLifetime: Duration) -> [any Emulator] {
        [CroboxEmulator()]
    }
}
