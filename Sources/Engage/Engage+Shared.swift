@_spi(EngageProvider) import EngageCore
extension Engage {
    static let sharedInstance = BootstrapOnce<Engage>(name: "Engage.shared")

    /// The process-wide instance, for apps that prefer a singleton. Throws `.notConfigured` until
    /// `configure(configuration:providers:environment:)` has returned or
    /// `bootstrap(configuration:providers:environment:)` has completed.
    public static var shared: Engage {
        get throws(EngageError) { try sharedInstance.get() }
    }

    /// Starts an instance and makes it `Engage.shared`.
    ///
    /// The slot is reserved before anything starts: a second (or concurrent) call throws
    /// `.alreadyBootstrapped` at once without creating a registry. If starting fails, the reservation
    /// is given up and a later call may try again.
    @discardableResult
    @_spi(EngageProvider) public static func bootstrap(
        configuration: EngageConfiguration,
        providers: [ProviderRegistration] = [],
        environment: RegistryEnvironment
    ) async throws(EngageError) -> Engage {
        try sharedInstance.reserve()
        let engage: Engage
        do {
            engage = try await start(configuration: configuration, providers: providers, environment: environment)
        } catch {
            sharedInstance.abandon()
            throw error
        }
        sharedInstance.fulfil(engage)
        return engage
    }

    /// The callback twin of `bootstrap(configuration:providers:environment:)`.
    @discardableResult
    @_spi(EngageProvider) public static func bootstrap(
        configuration: EngageConfiguration,
        providers: [ProviderRegistration] = [],
        environment: RegistryEnvironment,
        completion: @escaping @MainActor @Sendable (Result<Engage, EngageError>) -> Void
    ) -> any EngageCancellable {
        CallbackBridge.run(completion: completion) {
            try await bootstrap(configuration: configuration, providers: providers, environment: environment)
        }
    }
    /// Starts an instance with the platform's services and makes it `Engage.shared` (see
    /// ``bootstrap(configuration:providers:environment:)``).
    @discardableResult
    public static func bootstrap(
        configuration: EngageConfiguration, providers: [ProviderRegistration] = []
    ) async throws(EngageError) -> Engage {
        try await bootstrap(configuration: configuration, providers: providers, environment: RegistryEnvironment())
    }

    /// The callback twin of `bootstrap(configuration:providers:)`.
    @discardableResult
    public static func bootstrap(
        configuration: EngageConfiguration, providers: [ProviderRegistration] = [],
        completion: @escaping @MainActor @Sendable (Result<Engage, EngageError>) -> Void
    ) -> any EngageCancellable {
        bootstrap(configuration: configuration, providers: providers, environment: RegistryEnvironment(), completion: completion)
    }
}
