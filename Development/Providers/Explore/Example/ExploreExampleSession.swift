@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExampleSupport
import EngageExplore
import Foundation
import Logging

/// The SDK side: a registry with the Explore provider, development preset, in memory unless `storage`
/// says otherwise.
struct ExploreExampleSession {
    static let appID = "org.engagekit.explore-example"
    let registry: ProviderRegistry
    let explore: ExploreProvider

    static func start(
        _ explore: ExploreConfiguration, storage: ExampleStorage = .resolve("memory", appID: appID, realBackend: false)
    ) async throws -> ExploreExampleSession {
        var configuration = EngageConfiguration.preset(.development, appID: appID)
        configuration.storage = storage.location
        configuration.logLevel = .error
        try configuration.setProvider(.explore, explore)
        let registry = try ProviderRegistry(
            configuration: configuration,
            environment: RegistryEnvironment(
                secretStore: storage.secretStore, logger: ExampleBackend.quietLogger(label: "explore-example"))
        )
        try await registry.register(.provider(ExploreProvider.self, from: configuration))
        let report = await registry.start()
        if let failure = report.failures[.explore] { throw failure }
        return ExploreExampleSession(registry: registry, explore: try await registry.provider(ExploreProvider.self))
    }

    func stop() async { await registry.shutdown() }
}
