@_spi(EngageProvider) import EngageCore
import Foundation

/// Where an example keeps the SDK's database and its key: what `--storage` chose.
///
/// Against a real backend (`--base-url`) the default is the app's default location, as an app would
/// use: the device registers once, the session survives between runs, and its tokens are sealed on
/// disk. With the embedded emulator, which forgets everything when the example ends, the default is
/// memory. `--storage PATH` uses a directory, `--storage memory` keeps nothing.
public struct ExampleStorage: Sendable {
    /// The storage location for `EngageConfiguration.storage`.
    public let location: StorageLocation
    /// The key store for `RegistryEnvironment.secretStore`: `nil` for the platform's own (Keychain, or a
    /// 0600 key file next to the database on Linux), an in-memory one with in-memory storage.
    @_spi(EngageProvider) public let secretStore: (any SecretStore)?

    /// The choice for `option` (`--storage`): `memory`, a directory path, or `nil` for the default,
    /// which is the app's default location for `appID` when `realBackend`, memory otherwise.
    public static func resolve(_ option: String?, appID: String, realBackend: Bool) -> ExampleStorage {
        switch option {
        case "memory":
            ExampleStorage(location: .inMemory, secretStore: InMemorySecretStore())
        case let path?:
            ExampleStorage(location: .directory(path), secretStore: nil)
        case nil where realBackend:
            ExampleStorage(location: .applicationDefault(appID: appID), secretStore: nil)
        case nil:
            ExampleStorage(location: .inMemory, secretStore: InMemorySecretStore())
        }
    }

    /// One line for the example's narration, e.g. `Storage: memory`.
    public var summary: String {
        switch location {
        case .inMemory: "Storage: memory (nothing is kept after this run)"
        case let .directory(path): "Storage: \(path) (sealed on disk)"
        case let .applicationDefault(appID): "Storage: the default location of \(appID) (sealed on disk)"
        case let .appGroup(group, appID, _): "Storage: \(appID) in the app group \(group) (sealed on disk)"
        }
    }

    /// The `--storage` option's help text.
    public static let optionHelp =
        "Where the SDK keeps its data: a directory, or 'memory' (default: the app's default location with --base-url, memory with the embedded emulator)."
}
