import Foundation
import Logging

/// Everything an `Engage` instance needs to start: app id, storage, network, auth and analytics
/// settings, logging, and each provider's own configuration section.
///
/// Start from a preset and adjust, or load JSON:
///
/// ```swift
/// var configuration = EngageConfiguration.preset(.production, appID: "com.example.shop")
/// configuration.network.timeoutSeconds = 20
/// configuration.providers["crobox"] = ["containerID": "xlrc9t"]          // a JSON section, or typed:
/// try configuration.setProvider("weatherperks", WeatherPerks.Configuration(baseURL: url))
///
/// let fromFile = try EngageConfiguration.load(json: Data(contentsOf: url))
/// ```
///
/// In JSON, only `appID` is required; a missing section comes from `preset` (default `production`) and
/// a missing field inside a section from that section's defaults.
public struct EngageConfiguration: Codable, Sendable, Equatable {
    /// Named starting points, after the Warply SDK's presets. Unlike that SDK, every preset encrypts
    /// secrets at rest and redacts logs: only timeouts, retries, log level, storage and transport
    /// strictness differ.
    public enum Preset: String, Codable, Sendable, CaseIterable {
        /// Local development: verbose logs, 15 s timeout, 2 attempts, plain HTTP allowed.
        case development
        /// Release builds: warnings only, 30 s timeout, 3 attempts, HTTPS only.
        case production
        /// Automated tests: in-memory storage, errors only, 5 s timeout, 1 attempt, plain HTTP allowed.
        case testing
        /// Sensitive environments: errors only, 20 s timeout, 2 attempts, HTTPS only, short queues.
        case highSecurity
    }

    /// The app's identifier (reverse DNS), used for the storage directory and key store.
    public var appID: String
    /// The preset the defaults came from.
    public var preset: Preset
    /// Where the database (and on Linux the key files) live.
    public var storage: StorageLocation
    /// Timeouts, retries, response size limit and the HTTP policy.
    public var network: NetworkSettings
    /// Proactive refresh and circuit breaker settings.
    public var auth: AuthSettings
    /// Durable analytics queue settings.
    public var analytics: AnalyticsSettings
    /// The most verbose level the SDK logs at. The level of the app's logger (`RegistryEnvironment.logger`)
    /// applies as well, and the SDK never changes it.
    public var logLevel: Logger.Level
    /// Each provider's configuration section, by provider id. A compiled-in provider starts only if
    /// it has a section here (or is registered explicitly).
    public var providers: [String: JSONValue]
    /// Which links (URLs the app is opened with, links in notifications) belong to which provider, for
    /// `engage.handle(_:)`; none by default.
    public var links: LinkSettings
    /// The settings of the JSON this configuration was decoded from that nothing reads, as dotted key
    /// paths (`network.timeoutSecs`): a misspelt or retired setting, which is ignored. Empty for a
    /// configuration built in code. Each provider's section is checked when the provider is
    /// registered; the start report lists both (`RegistryStartReport.unknownKeys`) and logs them.
    public private(set) var unknownKeys: [String] = []

    /// A configuration for `appID`; settings not given take `preset`'s defaults.
    public init(
        appID: String,
        preset: Preset = .production,
        storage: StorageLocation? = nil,
        network: NetworkSettings? = nil,
        auth: AuthSettings = AuthSettings(),
        analytics: AnalyticsSettings? = nil,
        logLevel: Logger.Level? = nil,
        providers: [String: JSONValue] = [:],
        links: LinkSettings = LinkSettings()
    ) {
        let defaults = Self.defaults(for: preset, appID: appID)
        self.appID = appID
        self.preset = preset
        self.storage = storage ?? defaults.storage
        self.network = network ?? defaults.network
        self.auth = auth
        self.analytics = analytics ?? defaults.analytics
        self.logLevel = logLevel ?? defaults.logLevel
        self.providers = providers
        self.links = links
    }

    /// The preset's settings for `appID`.
    public static func preset(_ preset: Preset, appID: String) -> EngageConfiguration {
        EngageConfiguration(appID: appID, preset: preset)
    }

    private static func defaults(
        for preset: Preset, appID: String
    ) -> (storage: StorageLocation, network: NetworkSettings, analytics: AnalyticsSettings, logLevel: Logger.Level) {
        switch preset {
        case .development:
            return (
                .applicationDefault(appID: appID), NetworkSettings(timeoutSeconds: 15, maxAttempts: 2, allowsInsecureHTTP: true),
                AnalyticsSettings(), .trace
            )
        case .production:
            return (.applicationDefault(appID: appID), NetworkSettings(timeoutSeconds: 30, maxAttempts: 3), AnalyticsSettings(), .warning)
        case .testing:
            return (
                .inMemory, NetworkSettings(timeoutSeconds: 5, maxAttempts: 1, allowsInsecureHTTP: true),
                AnalyticsSettings(flushIntervalSeconds: 1), .error
            )
        case .highSecurity:
            return (
                .applicationDefault(appID: appID), NetworkSettings(timeoutSeconds: 20, maxAttempts: 2),
                AnalyticsSettings(maxPendingEvents: 2_000), .error
            )
        }
    }

    // MARK: - Codable with preset fallback

    enum CodingKeys: String, CodingKey {
        case appID, preset, storage, network, auth, analytics, logLevel, providers, links
    }

    /// Decodes a configuration: `appID` is required, missing settings take the preset's defaults, and
    /// settings nothing reads are listed in ``unknownKeys``.
    public init(from decoder: any Decoder) throws {
        let written = try JSONValue(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let appID = try container.decode(String.self, forKey: .appID)
        let preset = try container.decodeIfPresent(Preset.self, forKey: .preset) ?? .production
        self.init(
            appID: appID,
            preset: preset,
            storage: try container.decodeIfPresent(StorageLocation.self, forKey: .storage),
            network: try container.decodeIfPresent(NetworkSettings.self, forKey: .network),
            auth: try container.decodeIfPresent(AuthSettings.self, forKey: .auth) ?? AuthSettings(),
            analytics: try container.decodeIfPresent(AnalyticsSettings.self, forKey: .analytics),
            logLevel: try container.decodeIfPresent(Logger.Level.self, forKey: .logLevel),
            providers: try container.decodeIfPresent([String: JSONValue].self, forKey: .providers) ?? [:],
            links: try container.decodeIfPresent(LinkSettings.self, forKey: .links) ?? LinkSettings()
        )
        // What this type reads is what it writes back; the provider sections are their providers' to check.
        if case var .object(shared) = written, case var .object(read)? = try? JSONValue(encoding: self) {
            shared[CodingKeys.providers.rawValue] = nil
            read[CodingKeys.providers.rawValue] = nil
            unknownKeys = JSONValue.object(shared).unknownKeyPaths(comparedWith: .object(read))
        }
    }

    /// Whether the two configurations have the same settings (``unknownKeys`` aside: they say what
    /// the JSON had besides).
    public static func == (lhs: EngageConfiguration, rhs: EngageConfiguration) -> Bool {
        lhs.appID == rhs.appID && lhs.preset == rhs.preset && lhs.storage == rhs.storage && lhs.network == rhs.network
            && lhs.auth == rhs.auth && lhs.analytics == rhs.analytics && lhs.logLevel == rhs.logLevel
            && lhs.providers == rhs.providers && lhs.links == rhs.links
    }

    /// Loads a configuration from JSON, turning any decoding failure into a clear
    /// `.invalidConfiguration` error, then validates it.
    public static func load(json: Data) throws(EngageError) -> EngageConfiguration {
        guard json.count <= 4 * 1024 * 1024 else {
            throw EngageError(.invalidConfiguration, "The configuration file is larger than 4 MiB.")
        }
        let configuration: EngageConfiguration
        do {
            configuration = try JSONDecoder().decode(EngageConfiguration.self, from: json)
        } catch let error as DecodingError {
            throw EngageError(decodingError: error, what: "configuration", code: .invalidConfiguration)
        } catch {
            throw EngageError(.invalidConfiguration, "The configuration is not valid JSON.", underlyingError: error)
        }
        try configuration.validate()
        return configuration
    }

    // MARK: - Provider sections

    /// Adds a provider's typed configuration as its section, replacing one it had: the compiler checks
    /// each setting, where a JSON section is checked at start.
    ///
    /// ```swift
    /// var configuration = EngageConfiguration.preset(.production, appID: "com.example.shop")
    /// try configuration.add(.crobox(CroboxConfiguration(containerID: "xlrc9t")))
    /// ```
    ///
    /// - Throws: `.invalidConfiguration` when the configuration cannot be written as JSON (a number that
    ///   is not finite).
    public mutating func add(_ section: ProviderSection) throws(EngageError) {
        try setProvider(section.id, section.configuration)
    }

    /// Stores `configuration` as the section of provider `id`.
    public mutating func setProvider(_ id: ProviderID, _ configuration: some ProviderConfiguration) throws(EngageError) {
        do {
            providers[id.rawValue] = try JSONValue(encoding: configuration)
        } catch {
            throw EngageError(.invalidConfiguration, "The configuration could not be encoded.", providerID: id, underlyingError: error)
        }
    }

    /// Decodes the section of provider `id` as `type`; `nil` when there is no section.
    public func providerConfiguration<Configuration: ProviderConfiguration>(
        _ type: Configuration.Type, for id: ProviderID
    ) throws(EngageError) -> Configuration? {
        guard let section = providers[id.rawValue] else { return nil }
        do {
            return try section.decode(type)
        } catch let error as DecodingError {
            throw EngageError(decodingError: error, providerID: id, what: "'\(id)' configuration", code: .invalidConfiguration)
        } catch {
            throw EngageError(.invalidConfiguration, "The '\(id)' configuration could not be read.", providerID: id, underlyingError: error)
        }
    }

    // MARK: - Validation

    /// Every problem with the configuration, as readable sentences.
    public func validationIssues() -> [String] {
        var issues: [String] = []
        do {
            try StorageLocation.validateAppID(appID)
        } catch {
            issues.append("appID: \((error as? EngageError)?.message ?? "invalid").")
        }
        issues += network.validationIssues()
        issues += auth.validationIssues()
        issues += analytics.validationIssues()
        issues += links.validationIssues()
        for key in providers.keys.sorted() where !ProviderID(rawValue: key).isValid {
            issues.append("providers: '\(key.prefix(64))' is not a valid provider id (lowercase letters, digits, '-', '_').")
        }
        return issues
    }

    /// Throws `.invalidConfiguration` listing every issue.
    public func validate() throws(EngageError) {
        let issues = validationIssues()
        guard !issues.isEmpty else { return }
        throw EngageError(
            .invalidConfiguration, "Invalid configuration: " + issues.joined(separator: " "),
            recoverySuggestion: "Fix the listed settings, or start from EngageConfiguration.preset(_:appID:)."
        )
    }
}
