import Engage
import EngageReference
import EngageSandbox
import EngageTesting
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
    let callbackQueue = DispatchQueue(label: "engage-demo.callbacks")

    func baseURL(for id: String) throws -> URL {
        if let url = overrides[id] ?? endpoints.baseURL(for: id) { return url }
        throw EngageError(.notConfigured, "The sandbox serves no '\(id)' backend.")
    }

    func startEngage() async throws -> Engage {
        var configuration = EngageConfiguration.preset(.development, appID: "org.engagekit.demo")
        configuration.storage = .inMemory
        configuration.logLevel = logLevel
        try configuration.setProvider("reference", ReferenceProvider.Configuration(baseURL: baseURL(for: "reference")))
        #if Crobox
            try configuration.setProvider(.crobox, CroboxConfiguration(
                containerID: croboxContainer, baseURL: baseURL(for: "crobox"), locale: "en_US", currency: "EUR"
            ))
        #endif
        #if Warply
            var warply = WarplyConfiguration.preset(.development, appUUID: warplyAppUUID)
            warply.environment = .custom(try baseURL(for: "warply"))
            warply.language = .english
            try configuration.setProvider(.warply, warply)
        #endif
        #if Explore
            var explore = ExploreConfiguration(feedURL: try baseURL(for: "explore-feed"), syncsAutomatically: false)
            explore.ctx = CTXConfiguration(baseURL: try baseURL(for: "ctx"), clientID: "engage-demo")
            try configuration.setProvider(.explore, explore)
        #endif
        var logger = Logger(label: "engage-demo")
        logger.logLevel = logLevel
        return try await Engage.start(
            configuration: configuration,
            providers: [ProviderRegistration.provider(ReferenceProvider.self, from: configuration)],
            environment: RegistryEnvironment(secretStore: InMemorySecretStore(), callbackQueue: .queue(callbackQueue), logger: logger)
        )
    }
}
