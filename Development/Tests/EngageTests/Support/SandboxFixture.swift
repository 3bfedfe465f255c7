@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) import EngageReference
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import Logging
import ReferenceEmulator
import Testing

/// A sandbox serving the reference emulator on 127.0.0.1 (ephemeral port) and an Engage instance
/// with the `ReferenceProvider` pointed at it.
struct SandboxFixture {
    let clock = OffsetClock()
    let emulator = ReferenceEmulator(configuration: .init(password: referencePassword))
    let host: SandboxHost
    let baseURL: URL

    init(tokenLifetime: Duration = .seconds(300)) async throws {
        let clock = self.clock
        host = SandboxHost(
            emulators: [emulator],
            configuration: SandboxConfiguration(now: { clock.now }, tokenLifetime: tokenLifetime)
        )
        let endpoints = try await host.start()
        baseURL = try #require(endpoints.baseURL(for: "reference"))
    }

    func configuration(storage: StorageLocation = .inMemory) throws -> EngageConfiguration {
        var configuration = EngageConfiguration.preset(.testing, appID: "org.engagekit.e2e")
        configuration.network.timeoutSeconds = 20  // generous: the suite runs hundreds of tests at once
        configuration.storage = storage
        configuration.network.maxAttempts = 3
        configuration.network.retryBaseDelaySeconds = 0.01
        configuration.network.retryMaxDelaySeconds = 0.05
        configuration.analytics.flushIntervalSeconds = 3600
        try configuration.setProvider("reference", ReferenceProvider.Configuration(baseURL: baseURL))
        return configuration
    }

    func startEngage(
        storage: StorageLocation = .inMemory, secretStore: any SecretStore = InMemorySecretStore(), logger: Logger? = nil
    ) async throws -> Engage {
        let configuration = try configuration(storage: storage)
        let registration = try ProviderRegistration.provider(ReferenceProvider.self, from: configuration)
        return try await Engage.start(
            configuration: configuration,
            providers: [registration],
            environment: RegistryEnvironment(
                clock: clock, random: SeededRandomSource(seed: 1), secretStore: secretStore, logger: logger ?? Logger(label: "e2e")
            )
        )
    }

    func stop() async {
        await host.stop()
    }
}

/// The reference emulator's password: distinctive, so that finding it in logs means it leaked.
let referencePassword = "pw-7Qz81-reference"

let referenceUser = UserIdentity(userID: "maria", email: "maria@example.gr", attributes: ["reference.password": .string(referencePassword)])
