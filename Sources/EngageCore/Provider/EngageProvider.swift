/// A provider module: the contract every built-in and third-party provider implements.
///
/// ```swift
/// /// Perks from a weather service: an offers source for the facade, and its own `claim` operation.
/// public final class WeatherPerks: EngageProvider {
///     /// Where the service is; checked when the provider is registered.
///     public struct Configuration: ProviderConfiguration {
///         public var baseURL: URL
///         public init(baseURL: URL) { self.baseURL = baseURL }
///         public func validationIssues() -> [String] { baseURL.host == nil ? ["baseURL must be an absolute URL."] : [] }
///     }
///
///     public static let descriptor = ProviderDescriptor(
///         id: "weatherperks", displayName: "Weather perks", version: "1.0.0"
///     )
///
///     private struct Perk: Decodable { var id: String, title: String }
///     private struct Refusal: Decodable { var refused: String }
///
///     let context: ProviderContext
///     let client: APIClient
///     @_spi(EngageProvider) public let tokens: TokenManager
///
///     @_spi(EngageProvider) public init(configuration: Configuration, context: ProviderContext) async throws {
///         self.context = context
///         // The backend's rules go into the client's response policy, not into a wrapper: this one
///         // refuses in the body of a 200, and names one error status.
///         let policy = ResponsePolicy { answer in
///             if answer.response.status == 410 { return .fail(EngageError(.invalidInput, "This perk has expired.", httpStatus: 410)) }
///             guard answer.response.isSuccess, let refusal = try? JSONDecoder().decode(Refusal.self, from: answer.response.body) else {
///                 return .accept
///             }
///             return .fail(EngageError(.httpStatus, "Weather perks refused: \(answer.redactor.redact(text: refusal.refused))"))
///         }
///         let publicClient = try context.makeAPIClient(baseURL: configuration.baseURL, policy: policy)
///         tokens = context.makeTokenManager(refresher: PerksRefresher(client: publicClient))
///         client = try context.makeAPIClient(
///             baseURL: configuration.baseURL, authorizer: BearerAuthorizer(tokens: tokens), policy: policy
///         )
///     }
///
///     /// Today's perks as offers (no session needed).
///     public func offers(_ query: OfferQuery) async throws(EngageError) -> [Offer] {
///         try await context.perform(PerksOperation.offers) {
///             let perks = try await client.json([Perk].self, .get, "/perks", options: RequestOptions(authorization: .none))
///             return perks.map { Offer(id: $0.id, providerID: Self.descriptor.id, kind: .promotion, title: LocalizedText($0.title)) }
///         }
///     }
///
/// }
///
/// /// The perks operations, declared once: the name each one's events and requests carry, and whether
/// /// its requests may be resent after a lost answer.
/// enum PerksOperation: String, ProviderOperation {
///     case offers
///     case claim = "claim_perk"
///
///     /// Reading perks twice does no harm; claiming twice could claim two.
///     var isRepeatable: Bool { self == .offers }
/// }
///
/// // The facade's `engage.offers()` reaches providers through the capability protocols; their
/// // conformances are part of the provider-author surface, so they are declared under the same SPI.
/// @_spi(EngageProvider) extension WeatherPerks: OffersProviding {}
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
    @_spi(EngageProvider) static var migrations: [StorageMigration] { get }
    /// The error codes the provider declares, each with its permanent number (1000 or more) and what it
    /// means: the registry registers them with the core as it registers the provider, so an app's
    /// `NSError` codes and `failureReason`s are the declared ones. Codes left out get a number from
    /// their text.
    @_spi(EngageProvider) static var errorCodes: [EngageError.Code.Entry] { get }

    /// Creates the provider. Fail with an `EngageError` (e.g. `.invalidConfiguration`); the registry
    /// reports it and starts the other providers anyway.
    @_spi(EngageProvider) init(configuration: Configuration, context: ProviderContext) async throws

    /// Called once after every provider was created: register queue destinations, load caches,
    /// register the device...
    @_spi(EngageProvider) func start() async throws

    /// Called when the registry shuts down: flush, cancel background work. Must not throw.
    @_spi(EngageProvider) func shutdown() async
}

extension EngageProvider {
    /// No migrations by default.
    @_spi(EngageProvider) public static var migrations: [StorageMigration] { [] }
    /// No numbered error codes by default.
    @_spi(EngageProvider) public static var errorCodes: [EngageError.Code.Entry] { [] }
    /// Does nothing by default.
    @_spi(EngageProvider) public func start() async throws {}
    /// Does nothing by default.
    @_spi(EngageProvider) public func shutdown() async {}

    /// The provider's id.
    public var id: ProviderID { Self.descriptor.id }
}

/// A provider's configuration: `Codable` (so it loads from JSON) and self-validating.
public protocol ProviderConfiguration: Codable, Sendable {
    /// Problems with this configuration as readable sentences, empty when it is usable.
    func validationIssues() -> [String]

    /// The keys of a JSON section this type reads but does not write back when it is encoded (a
    /// preset it applies first, a former name it still accepts). Any other key that encoding does not
    /// write back is reported as unknown at start (`RegistryStartReport.unknownKeys`).
    @_spi(EngageProvider) static var decodingOnlyKeys: Set<String> { get }
}

extension ProviderConfiguration {
    /// No issues by default.
    public func validationIssues() -> [String] { [] }

    /// None by default: what the type reads, it writes.
    @_spi(EngageProvider) public static var decodingOnlyKeys: Set<String> { [] }

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
@_spi(EngageProvider) public struct EmptyConfiguration: ProviderConfiguration, Equatable {
    /// The empty configuration.
    public init() {}
}
