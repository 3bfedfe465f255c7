import Foundation
import Logging

/// The shared services a registry hands its providers. Every field has a production default; tests
/// inject a fake clock, an in-memory transport, a seeded random source and an in-memory secret store.
@_spi(EngageProvider) public struct RegistryEnvironment: Sendable {
    /// The bottom HTTP transport providers send through (`URLSessionTransport` by default).
    public var transport: any HTTPTransport
    /// The time source (`SystemClock` by default).
    public var clock: any EngageClock
    /// The randomness source for jitter (`SystemRandomSource` by default).
    public var random: any RandomSource
    /// `nil` chooses `SecretStores.platformDefault` for the configured storage location.
    public var secretStore: (any SecretStore)?
    /// The base logger. Providers and the queue log through its handler, filtered at the configured
    /// level as well as at this logger's own; the registry never changes this logger or its handler.
    public var logger: Logger
    /// Process environment used to resolve default storage paths.
    public var environmentVariables: [String: String]
    /// Where an `Engage` instance listens for the app moving to the background (`.default`).
    public var notificationCenter: NotificationCenter
    /// Whether the device is online (`Connectivity.system()`: the OS's signal where there is one).
    public var connectivity: Connectivity

    /// An environment with production defaults for everything not given.
    public init(
        transport: (any HTTPTransport)? = nil,
        clock: any EngageClock = SystemClock(),
        random: any RandomSource = SystemRandomSource(),
        secretStore: (any SecretStore)? = nil,
        logger: Logger = Logger(label: "engagekit"),
        environmentVariables: [String: String] = ProcessInfo.processInfo.environment,
        notificationCenter: NotificationCenter = .default,
        connectivity: Connectivity? = nil
    ) {
        self.transport = transport ?? URLSessionTransport()
        self.clock = clock
        self.random = random
        self.secretStore = secretStore
        self.logger = logger
        self.environmentVariables = environmentVariables
        self.notificationCenter = notificationCenter
        self.connectivity = connectivity ?? .system()
    }
}

/// The outcome of `ProviderRegistry.start()`: which providers run and which failed, and why.
public struct RegistryStartReport: Sendable {
    /// Providers that started, in registration order.
    public var started: [ProviderID]
    /// Providers that failed to initialise or start, or whose configuration section is invalid (the
    /// error names the setting).
    public var failures: [ProviderID: EngageError]
    /// Sections of `configuration.providers` that no provider of this build reads: a misspelt id
    /// (`crobx`) or a provider whose trait is off. They are ignored and logged.
    public var unusedSections: [String]
    /// Settings of the configuration's JSON that nothing reads, as dotted key paths: a misspelt or
    /// retired setting of the shared settings (`network.timeoutSecs`) or of a provider's section
    /// (`providers.crobox.containerId`). They are ignored and logged; the provider still starts, with
    /// that setting's default.
    public var unknownKeys: [String]

    /// A report listing `started` providers, `failures` by id, `unusedSections` and `unknownKeys`.
    public init(
        started: [ProviderID] = [], failures: [ProviderID: EngageError] = [:], unusedSections: [String] = [], unknownKeys: [String] = []
    ) {
        self.started = started
        self.failures = failures
        self.unusedSections = unusedSections
        self.unknownKeys = unknownKeys
    }

    /// Whether every registered provider started.
    public var isComplete: Bool { failures.isEmpty }
}
