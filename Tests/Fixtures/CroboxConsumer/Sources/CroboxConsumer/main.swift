@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import Engage
import Foundation

// Prints the provider traits EngageKit was compiled with and fails unless they are exactly Crobox's.
let traits = Engage.enabledProviderTraits
print("EngageKit provider traits: \(traits.joined(separator: ","))")
print("Built-in providers: \(Engage.builtInProviders.map(\.descriptor.id.rawValue).joined(separator: ","))")
guard traits == ["Crobox"] else {
    FileHandle.standardError.write(Data("expected exactly the Crobox trait, got \(traits)\n".utf8))
    exit(1)
}
