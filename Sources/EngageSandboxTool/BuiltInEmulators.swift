import EngageSandbox

/// The emulators `engage-sandbox` serves: the reference backend plus every provider emulator compiled
/// into this build.
///
/// A provider adds its emulator here under its trait, next to the import of its emulator module:
///
/// ```swift
/// #if Warply
/// import WarplyEmulator
/// #endif
///
/// // in builtInEmulators(tokenLifetime:):
/// #if Warply
/// emulators.append(WarplyEmulator())
/// #endif
/// ```
///
/// (Package.swift already lists each provider's emulator as a trait-gated dependency of this target.)
/// - Parameter tokenLifetime: The access token lifetime the emulators should use.
func builtInEmulators(tokenLifetime: Duration) -> [any Emulator] {
    let emulators: [any Emulator] = [
        ReferenceEmulator(configuration: .init(accessTokenLifetime: tokenLifetime))
    ]
    return emulators
}
