import Foundation
import Logging

/// The shared services a registry hands its providers. Every field has a production default; tests
/// inject a fake clock, an in-memory transport, a seeded random source and an in-memory secret store.
public struct RegistryEnvironment: Sendable {
    public var transport: any HTTPTransport
    public var clock: any EngageClock
    public var random: any RandomSource
    /// `nil` chooses `SecretStores.platformDefault` for the configured storage location.
    public var secretStore: (any SecretStore)?
    public var callbackQueue: CallbackQueue
    public var logger: Logger
    /// Process environment used to resolve default storage paths.
    public var environmentVariables: [String: String]

    public init(
        transport: (any HTTPTransport)? = nil,
        clock: any EngageClock = SystemClock(),
        random: any RandomSource = SystemRandomSource(),
        secretStore: (any SecretStore)? = nil,
        callbackQueue: CallbackQueue = .platformDefault,
        logger: Logger = Logger(label: "engagekit"),
        environmentVariables: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.transport = transport ?? URLSessionTransport()
        self.clock = clock
        self.random = random
        self.secretStore = secretStore
        self.callbackQueue = callbackQueue
        self.logger = logger
        self.environmentVariables = environmentVariables
    }
}

/// The outcome of `ProviderRegistry.start()`: which providers run and which failed, and why.
public struct RegistryStartReport: Sendable {
    /// Providers that started, in registration order.
    public var started: [ProviderID]
    /// Providers that failed to initialise or start.
    public var failures: [ProviderID: EngageError]

    public init(started: [ProviderID] = [], failures: [ProviderID: EngageError] = [:]) {
        self.started = started
        self.failures = failures
    }

    /// Whether every registered provider started.
    public var isComplete: Bool { failures.isEmpty }
}
