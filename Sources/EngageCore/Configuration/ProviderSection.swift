/// One provider's typed configuration, bound to the provider's id, for
/// ``EngageConfiguration/add(_:)``. Each provider module offers one static function that makes it,
/// named after the provider (`.crobox(_:)`, `.warply(_:)`…), so a section cannot go to the wrong
/// provider or carry a misspelt setting:
///
/// ```swift
/// try configuration.add(.crobox(CroboxConfiguration(containerID: "xlrc9t")))
/// ```
///
/// A provider package offers its own the same way:
///
/// ```swift
/// extension ProviderSection {
///     /// WeatherPerks' section.
///     public static func weatherPerks(_ configuration: WeatherPerks.Configuration) -> ProviderSection {
///         ProviderSection(WeatherPerks.self, configuration)
///     }
/// }
/// ```
public struct ProviderSection: Sendable {
    /// The provider the section configures.
    public let id: ProviderID
    /// Its configuration.
    @_spi(EngageProvider) public let configuration: any ProviderConfiguration

    /// The section of `provider`, whose configuration type `configuration` has: the id comes from the
    /// provider's descriptor.
    @_spi(EngageProvider) public init<Provider: EngageProvider>(_ provider: Provider.Type, _ configuration: Provider.Configuration) {
        id = Provider.descriptor.id
        self.configuration = configuration
    }
}
