import EngageSandbox
import ReferenceEmulator

#if Crobox
    import CroboxEmulator
#endif
#if Warply
    import WarplyEmulator
#endif
#if Explore
    import ExploreEmulator
#endif

/// The emulators compiled into this build: the reference backend plus every provider emulator whose
/// trait is enabled. `engage-sandbox` serves them and `engage-demo` runs its scenarios against them.
///
/// A provider adds its emulator here under its trait, next to the import of its emulator module:
///
/// ```swift
/// #if Warply
/// import WarplyEmulator
/// #endif
///
/// // in all(tokenLifetime:):
/// #if Warply
/// emulators.append(WarplyEmulator())
/// #endif
/// ```
///
/// (Package.swift lists each provider's emulator as a trait-gated dependency of this target.)
public enum BuiltInEmulators {
    /// Fresh instances of every compiled-in emulator.
    /// - Parameter tokenLifetime: The access token lifetime the emulators should use.
    public static func all(tokenLifetime: Duration = .seconds(300)) -> [any Emulator] {
        var emulators: [any Emulator] = [
            ReferenceEmulator(configuration: .init(accessTokenLifetime: tokenLifetime))
        ]
        #if Crobox
            emulators.append(CroboxEmulator())
        #endif
        #if Warply
            emulators.append(WarplyEmulator(configuration: .init(accessTokenLifetime: tokenLifetime)))
        #endif
        #if Explore
            // Generating the published directories only fails when the temporary folder is not writable.
            if let feed = try? ExploreFeedEmulator.withGeneratedDirectories() { emulators.append(feed) }
            // No wallet pays in the sandbox: cards count as paid after 2 s and are delivered 2 s later.
            emulators.append(CTXEmulator(configuration: .init(
                accessTokenLifetime: tokenLifetime, fulfillmentDelay: .seconds(2), autoPayDelay: .seconds(2)
            )))
        #endif
        #if PiggyCards
            emulators.append(PiggyCardsEmulator())
        #endif
        return emulators
    }
}
