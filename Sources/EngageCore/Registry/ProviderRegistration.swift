/// A provider type with its configuration, ready to be created by a registry.
///
/// ```swift
/// let engage = try Engage(
///     configuration: configuration,
///     providers: [.provider(WeatherPerks.self, configuration: .init(baseURL: baseURL))],
///     environment: RegistryEnvironment(transport: backend, secretStore: InMemorySecretStore())
/// )
/// ```
public struct ProviderRegistration: Sendable {
    /// The provider's descriptor (id, name, version).
    public let descriptor: ProviderDescriptor
    let migrations: [StorageMigration]
    /// The provider's numbered error codes, registered with the core by the registry.
    let errorCodes: [EngageError.Code.Entry]
    let validationIssues: [String]
    /// The settings of the provider's JSON section that its configuration type does not read.
    package var unknownKeys: [String] = []
    let make: @Sendable (ProviderContext) async throws -> any EngageProvider

    /// Registers `type` with an explicit configuration.
    public static func provider<Provider: EngageProvider>(
        _ type: Provider.Type, configuration: Provider.Configuration
    ) -> ProviderRegistration {
        ProviderRegistration(
            descriptor: Provider.descriptor,
            migrations: Provider.migrations,
            errorCodes: Provider.errorCodes,
            validationIssues: configuration.validationIssues(),
            make: { context in try await Provider(configuration: configuration, context: context) }
        )
    }

    /// Registers `type` with its section of `configuration.providers`.
    ///
    /// - Throws: `.notConfigured` when there is no section for the provider; `.invalidConfiguration`
    ///   when the section cannot be decoded.
    public static func provider<Provider: EngageProvider>(
        _ type: Provider.Type, from configuration: EngageConfiguration
    ) throws(EngageError) -> ProviderRegistration {
        let id = Provider.descriptor.id
        guard let section = try configuration.providerConfiguration(Provider.Configuration.self, for: id) else {
            throw EngageError(
                .notConfigured, "The '\(id)' provider has no configuration.", providerID: id,
                recoverySuggestion: "Add a \"\(id)\" section to the configuration's providers."
            )
        }
        var registration = ProviderRegistration.provider(type, configuration: section)
        // What the type reads is what it writes back: any other key of the section is unknown.
        if case var .object(written)? = configuration.providers[id.rawValue], let read = try? JSONValue(encoding: section) {
            for key in Provider.Configuration.decodingOnlyKeys { written[key] = nil }
            registration.unknownKeys = JSONValue.object(written).unknownKeyPaths(comparedWith: read, under: "providers.\(id.rawValue)")
        }
        return registration
    }
}

/// A provider type, usable without knowing its configuration type (for lists of built-in providers).
@_spi(EngageProvider) public struct ProviderFactory: Sendable {
    /// The provider's descriptor (id, name, version).
    public let descriptor: ProviderDescriptor
    /// The provider's numbered error codes (``EngageProvider/errorCodes``).
    public let errorCodes: [EngageError.Code.Entry]
    private let registration: @Sendable (EngageConfiguration) throws(EngageError) -> ProviderRegistration

    /// A factory for `type`, which reads its configuration from its section of an `EngageConfiguration`.
    public init<Provider: EngageProvider>(_ type: Provider.Type) {
        descriptor = Provider.descriptor
        errorCodes = Provider.errorCodes
        registration = { configuration throws(EngageError) in try .provider(type, from: configuration) }
    }

    /// The registration for this provider from its section of `configuration`.
    @_spi(EngageProvider) public func registration(from configuration: EngageConfiguration) throws(EngageError) -> ProviderRegistration {
        try registration(configuration)
    }
}
