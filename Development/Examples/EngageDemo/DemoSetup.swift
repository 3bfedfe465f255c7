@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import Engage
@_spi(EngageProvider) import EngageReference
import EngageSandbox
@_spi(EngageProvider) import EngageTesting
import Foundation
import Logging

/// One Engage instance with every compiled-in provider configured against the sandbox (or the URLs
/// given on the command line), plus the reference provider as a third-party registration.
struct DemoSetup {
    let endpoints: SandboxEndpoints
    let overrides: [String: URL]
    let croboxContainer: String
    let warplyAppUUID: String
    let logLevel: Logger.Level
    /// Where the demo's event callbacks run (a serial queue: a block enqueued last runs after them all).
    let callbackQueue = DispatchQueue(label: "engage-demo.callbacks")

    func baseURL(for id: String) throws -> URL {
        if let url = overrides[id] ?? endpoints.baseURL(for: id) { return url }
        throw EngageError(.notConfigured, "The sandbox serves no '\(id)' backend.")
    }

    func startEngage() async throws -> Engage {
        var configuration = EngageConfiguration.preset(.development, appID: "org.engagekit.demo")
        configuration.storage = .inMemory
        configuration.logLevel = logLevel
        for scenario in BuiltInScenarios.all {
            try scenario.configure(&configuration, setup: self)
        }
        var logger = Logger(label: "engage-demo")
        logger.logLevel = logLevel
        return try await Engage.start(
            configuration: configuration,
            providers: [ProviderRegistration.provider(ReferenceProvider.self, from: configuration)],
            environment: RegistryEnvironment(secretStore: InMemorySecretStore(), logger: logger)
        )
    }
}
