/// A provider module: the contract every built-in and third-party provider implements.
///
/// ```swift
/// public final class WeatherPerks: EngageProvider, OffersProviding {
///     public struct Configuration: ProviderConfiguration { public var baseURL: URL }
///     public static let descriptor = ProviderDescriptor(
///         id: "weatherperks", displayName: "Weather perks", version: "1.0.0", capabilities: [.offers])
///
///     private let client: APIClient
///     private let context: ProviderContext
///
///     public init(configuration: Configuration, context: ProviderContext) async throws {
///         self.context = context
///         client = context.makeAPIClient(baseURL: configuration.baseURL)
///     }
///
///     public func offers(_ query: OfferQuery) async throws -> [Offer] {
///         try await context.perform("offers") { try await client.json([Offer].self, .get, "/perks") }
///     }
/// }
/// ```
///
/// A provider receives everything shared through its `ProviderContext` and never reaches for globals.
/// See CONTRIBUTING.md for the full walkthrough.
public protocol EngageProvider: AnyObject, Sendable {
    /// The provider's settings, loaded from its section of the configuration.
    associatedtype Configuration: ProviderConfiguration

    /// Who the provider is and what it can do.
    static var descriptor: ProviderDescriptor { get }

    /// The provider's storage migrations, oldest first. They run, once each, in the provider's own
    /// namespace before `init` is called.
    static var migrations: [StorageMigration] { get }

    /// Creates the provider. Fail with an `EngageError` (e.g. `.invalidConfiguration`); the registry
    /// reports it and starts the other providers anyway.
    init(configuration: Configuration, context: ProviderContext) async throws

    /// Called once after every provider was created: register queue destinations, load caches,
    /// register the device...
    func start() async throws

    /// Called when the registry shuts down: flush, cancel background work. Must not throw.
    func shutdown() async
}

extension EngageProvider {
    /// No migrations by default.
    public static var migrations: [StorageMigration] { [] }
    /// Does nothing by default.
    public func start() async throws {}
    /// Does nothing by default.
    public func shutdown() async {}

    /// The provider's id.
    public var id: ProviderID { Self.descriptor.id }
}

/// A provider's configuration: `Codable` (so it loads from JSON) and self-validating.
public protocol ProviderConfiguration: Codable, Sendable {
    /// Problems with this configuration as readable sentences, empty when it is usable.
    func validationIssues() -> [String]
}

extension ProviderConfiguration {
    /// No issues by default.
    public func validationIssues() -> [String] { [] }

    /// Throws `.invalidConfiguration` listing every issue, attributed to `providerID`.
    public func validate(for providerID: ProviderID) throws(EngageError) {
        let issues = validationIssues()
        guard !issues.isEmpty else { return }
        throw EngageError(
            .invalidConfiguration, "Invalid configuration: " + issues.joined(separator: " "), providerID: providerID,
            recoverySuggestion: "Fix the listed settings of the '\(providerID)' provider."
        )
    }
}

/// The configuration of a provider that needs none.
public struct EmptyConfiguration: ProviderConfiguration, Equatable {
    /// The empty configuration.
    public init() {}
}
