extension Engage {
    private static let sharedInstance = BootstrapOnce<Engage>(name: "Engage.shared")

    /// The process-wide instance, for apps that prefer a singleton. Throws `.notConfigured` until
    /// `bootstrap(configuration:providers:environment:)` has completed.
    public static var shared: Engage {
        get throws(EngageError) { try sharedInstance.get() }
    }

    /// Starts an instance and makes it `Engage.shared`. Throws `.alreadyBootstrapped` on a second call
    /// (the second instance is shut down again).
    @discardableResult
    public static func bootstrap(
        configuration: EngageConfiguration,
        providers: [ProviderRegistration] = [],
        environment: RegistryEnvironment = RegistryEnvironment()
    ) async throws(EngageError) -> Engage {
        if sharedInstance.valueIfBootstrapped != nil {
            throw EngageError(.alreadyBootstrapped, "Engage.shared was already bootstrapped.", recoverySuggestion: "Bootstrap once, at app launch.")
        }
        let engage = try await start(configuration: configuration, providers: providers, environment: environment)
        do {
            try sharedInstance.bootstrap(engage)
        } catch {
            await engage.shutdown()
            throw error
        }
        return engage
    }

    /// The callback twin of `bootstrap(configuration:providers:environment:)`.
    @discardableResult
    public static func bootstrap(
        configuration: EngageConfiguration,
        providers: [ProviderRegistration] = [],
        environment: RegistryEnvironment = RegistryEnvironment(),
        completion: @escaping @Sendable (Result<Engage, EngageError>) -> Void
    ) -> any Cancellable {
        CallbackBridge.run(on: environment.callbackQueue, completion: completion) {
            try await bootstrap(configuration: configuration, providers: providers, environment: environment)
        }
    }
}
