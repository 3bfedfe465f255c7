@_spi(EngageProvider) import EngageCore
import Foundation
import Logging

/// How the Warply provider talks to Warply.
///
/// Only `appUUID` is required; in JSON (the `warply` section of `EngageConfiguration.providers`):
/// ```json
/// { "appUUID": "f83dfde1145e4c2da69793abb2f579af", "environment": "production", "language": "el" }
/// ```
/// Start from a preset when the defaults do not fit:
/// ```swift
/// var warply = WarplyConfiguration.preset(.production, appUUID: "f83dfde1145e4c2da69793abb2f579af")
/// warply.language = .english
/// try configuration.setProvider(.warply, warply)
/// ```
public struct WarplyConfiguration: ProviderConfiguration, Equatable {
    /// The presets of the Warply SDK (see ``preset(_:appUUID:merchantID:)`` for every value).
    public enum Preset: String, Codable, Sendable, CaseIterable {
        /// UAT backend, 15 s requests, 2 attempts per call, every log line (`trace`).
        case development
        /// Production backend, 30 s requests, 3 attempts per call, warnings and errors only.
        case production
        /// For tests: UAT backend, 5 s requests, 1 attempt per call, errors only, no analytics.
        case testing
        /// Production backend, 20 s requests, 2 attempts per call, errors only, a refresh breaker that
        /// opens after 3 failures for 600 s, no analytics, and Wi-Fi only (no cellular networks).
        case highSecurity
    }

    /// Your application's UUID on the Warply platform (32 hex digits, or the dashed UUID form).
    public var appUUID: String
    /// Your merchant id (may be empty, as in the official SDK's examples). With ``Signing-swift.enum/merchant``
    /// signing it is the `loyalty-web-id` of every request.
    public var merchantID: String
    /// How requests are signed: ``Signing-swift.enum/merchant`` (the default) as the official iOS SDK signs them,
    /// or ``Signing-swift.enum/deviceRegistration`` as older Warply clients did.
    public var signing: Signing
    /// Which backend.
    public var environment: WarplyEnvironment
    /// The default language of operations that take one.
    public var language: WarplyLanguage
    /// The bundle id sent as `loyalty-bundle-id: <platform>:<bundleID>`; the registry's `appID` when `nil`.
    public var bundleID: String?
    /// The device id sent as `unique-device-id`; generated once and persisted when `nil`.
    public var deviceID: String?
    /// The per-request timeout in seconds; the registry's `network.timeoutSeconds` when `nil`.
    public var requestTimeoutSeconds: Double?
    /// The session's proactive refresh window and refresh breaker for Warply, overriding the
    /// registry's `auth` settings; `nil` uses them. In JSON the section `auth` (the legacy `tokens` keys
    /// are read too, see the provider's documentation).
    public var auth: AuthSettings?
    /// Credentials for the Cosmote partner endpoints (`Authorization: Basic`), if your app uses them.
    public var partnerCredentials: PartnerCredentials?
    /// Whether tracked events are sent to Warply analytics.
    public var analyticsEnabled: Bool
    /// The level of the Warply provider's own log lines (requests, registration, sessions); `nil`
    /// uses the registry's `EngageConfiguration.logLevel`. A level the app sets at run time
    /// (`Engage.logLevel`) still wins, and the app's own handler still filters what it receives.
    public var logLevel: Logger.Level?
    /// Attempts per Warply call for transient failures, the first included (1...10); `nil` uses the
    /// registry's `network.maxAttempts`. A token refresh is never sent twice whatever this says
    /// (Warply rotates refresh tokens, so a second send could end the session).
    public var maxAttempts: Int?
    /// Whether Warply calls may go over cellular networks; `false` keeps them on Wi-Fi or wired
    /// networks (the seed's "Wi-Fi only"). Enforced on Apple platforms, where a call made with only a
    /// cellular connection fails with a retryable `.network`; other platforms have no cellular interface.
    public var allowsCellularAccess: Bool

    /// A configuration. Unset values follow the registry's settings (its timeout, attempts and log
    /// level); the presets set them.
    public init(
        appUUID: String,
        merchantID: String = "",
        signing: Signing = .merchant,
        environment: WarplyEnvironment = .production,
        language: WarplyLanguage = .greek,
        bundleID: String? = nil,
        deviceID: String? = nil,
        requestTimeoutSeconds: Double? = nil,
        auth: AuthSettings? = nil,
        partnerCredentials: PartnerCredentials? = nil,
        analyticsEnabled: Bool = true,
        logLevel: Logger.Level? = nil,
        maxAttempts: Int? = nil,
        allowsCellularAccess: Bool = true
    ) {
        self.logLevel = logLevel
        self.maxAttempts = maxAttempts
        self.allowsCellularAccess = allowsCellularAccess
        self.appUUID = appUUID
        self.merchantID = merchantID
        self.signing = signing
        self.environment = environment
        self.language = language
        self.bundleID = bundleID
        self.deviceID = deviceID
        self.requestTimeoutSeconds = requestTimeoutSeconds
        self.auth = auth
        self.partnerCredentials = partnerCredentials
        self.analyticsEnabled = analyticsEnabled
    }

    /// How Warply requests are signed (`loyalty-web-id`, `loyalty-date`, `loyalty-signature`).
    public enum Signing: String, Codable, Sendable, CaseIterable {
        /// As the official iOS SDK (SwiftWarplyFramework 2.3.0) signs: `loyalty-web-id` is
        /// ``WarplyConfiguration/merchantID`` and the signature is the hex SHA-256 of `loyalty-date`
        /// alone (its API key is the empty string). No registration request is made; a body status 9
        /// fails the call with `.warplyRegistrationInvalid`, since there is nothing to renew.
        case merchant
        /// As older public Warply clients signed: the device registers (`GET …/register/`) for a
        /// `web_id` and an API key (kept sealed), signs with them, and registers again once when
        /// Warply answers status 9. Use it for a backend that still issues registrations.
        case deviceRegistration
    }

    /// The SDK's preset configurations.
    ///
    /// | preset | backend | request timeout | attempts per call | log level | refresh breaker | analytics | networks |
    /// |---|---|---|---|---|---|---|---|
    /// | `development` | UAT | 15 s | 2 | `trace` | the registry's `auth` | on | any |
    /// | `production` | production | 30 s | 3 | `warning` | the registry's `auth` | on | any |
    /// | `testing` | UAT | 5 s | 1 | `error` | the registry's `auth` | off | any |
    /// | `highSecurity` | production | 20 s | 2 | `error` | 3 failures / 600 s | off | Wi-Fi only |
    ///
    /// Tokens and the device registration are sealed at rest in every preset: the seed's unencrypted
    /// `development` and `testing` presets are not followed.
    public static func preset(_ preset: Preset, appUUID: String, merchantID: String = "") -> WarplyConfiguration {
        var configuration = WarplyConfiguration(appUUID: appUUID, merchantID: merchantID)
        switch preset {
        case .development:
            configuration.environment = .development
            configuration.requestTimeoutSeconds = 15
            configuration.maxAttempts = 2
            configuration.logLevel = .trace
        case .production:
            configuration.requestTimeoutSeconds = 30
            configuration.maxAttempts = 3
            configuration.logLevel = .warning
        case .testing:
            configuration.environment = .development
            configuration.requestTimeoutSeconds = 5
            configuration.maxAttempts = 1
            configuration.logLevel = .error
            configuration.analyticsEnabled = false
        case .highSecurity:
            configuration.requestTimeoutSeconds = 20
            configuration.maxAttempts = 2
            configuration.logLevel = .error
            configuration.auth = AuthSettings(breakerFailureThreshold: 3, breakerCooldownSeconds: 600)
            configuration.analyticsEnabled = false
            configuration.allowsCellularAccess = false
        }
        return configuration
    }

    enum CodingKeys: String, CodingKey {
        case appUUID, merchantID, signing, environment, language, bundleID, deviceID, requestTimeoutSeconds, auth, tokens,
            partnerCredentials
        case analyticsEnabled, preset, logLevel, maxAttempts, allowsCellularAccess
    }

    /// Decodes a configuration; `preset` (optional) is applied first, then the other keys override it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let appUUID = try container.decode(String.self, forKey: .appUUID)
        let merchantID = try container.decodeIfPresent(String.self, forKey: .merchantID) ?? ""
        if let preset = try container.decodeIfPresent(Preset.self, forKey: .preset) {
            self = Self.preset(preset, appUUID: appUUID, merchantID: merchantID)
        } else {
            self.init(appUUID: appUUID, merchantID: merchantID)
        }
        signing = try container.decodeIfPresent(Signing.self, forKey: .signing) ?? signing
        environment = try container.decodeIfPresent(WarplyEnvironment.self, forKey: .environment) ?? environment
        language = try container.decodeIfPresent(WarplyLanguage.self, forKey: .language) ?? language
        bundleID = try container.decodeIfPresent(String.self, forKey: .bundleID) ?? bundleID
        deviceID = try container.decodeIfPresent(String.self, forKey: .deviceID) ?? deviceID
        requestTimeoutSeconds = try container.decodeIfPresent(Double.self, forKey: .requestTimeoutSeconds) ?? requestTimeoutSeconds
        // A legacy `tokens` section overrides only its keys; an `auth` section (the current name) wins.
        if container.contains(.tokens), try !container.decodeNil(forKey: .tokens) {
            auth = try Self.authSettings(fromLegacyTokens: container.superDecoder(forKey: .tokens), base: auth ?? AuthSettings())
        }
        if container.contains(.auth), try !container.decodeNil(forKey: .auth) {
            auth = try AuthSettings(from: container.superDecoder(forKey: .auth), defaults: auth ?? AuthSettings())
        }
        partnerCredentials = try container.decodeIfPresent(PartnerCredentials.self, forKey: .partnerCredentials) ?? partnerCredentials
        analyticsEnabled = try container.decodeIfPresent(Bool.self, forKey: .analyticsEnabled) ?? analyticsEnabled
        logLevel = try container.decodeIfPresent(Logger.Level.self, forKey: .logLevel) ?? logLevel
        maxAttempts = try container.decodeIfPresent(Int.self, forKey: .maxAttempts) ?? maxAttempts
        allowsCellularAccess = try container.decodeIfPresent(Bool.self, forKey: .allowsCellularAccess) ?? allowsCellularAccess
    }

    /// `preset` (applied before the other keys) and `tokens` (the former name of `auth`): read, never
    /// written back.
    @_spi(EngageProvider) public static var decodingOnlyKeys: Set<String> { ["preset", "tokens"] }

    /// Encodes every setting (without a `preset` key).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(appUUID, forKey: .appUUID)
        try container.encode(merchantID, forKey: .merchantID)
        try container.encode(signing, forKey: .signing)
        try container.encode(environment, forKey: .environment)
        try container.encode(language, forKey: .language)
        try container.encodeIfPresent(bundleID, forKey: .bundleID)
        try container.encodeIfPresent(deviceID, forKey: .deviceID)
        try container.encodeIfPresent(requestTimeoutSeconds, forKey: .requestTimeoutSeconds)
        try container.encodeIfPresent(auth, forKey: .auth)
        try container.encodeIfPresent(partnerCredentials, forKey: .partnerCredentials)
        try container.encode(analyticsEnabled, forKey: .analyticsEnabled)
        try container.encodeIfPresent(logLevel, forKey: .logLevel)
        try container.encodeIfPresent(maxAttempts, forKey: .maxAttempts)
        try container.encode(allowsCellularAccess, forKey: .allowsCellularAccess)
    }

    /// Problems with these settings, each with what to do about it.
    public func validationIssues() -> [String] {
        var issues: [String] = []
        if !Self.isAppUUID(appUUID) {
            issues.append(
                "appUUID must be the 32 hex digits of your Warply application (got '\(appUUID.prefix(40))'); copy it from the Warply dashboard."
            )
        }
        if merchantID.count > 128 || merchantID.contains(where: { $0.isNewline }) {
            issues.append("merchantID must be at most 128 characters on one line.")
        }
        let url = environment.baseURL
        if url.scheme == nil || url.host == nil { issues.append("environment must be development, production or an absolute URL.") }
        if let requestTimeoutSeconds, !(requestTimeoutSeconds > 0 && requestTimeoutSeconds <= 300) {
            issues.append("requestTimeoutSeconds must be within (0, 300] (got \(requestTimeoutSeconds)); the presets use 5 to 30.")
        }
        if let bundleID, bundleID.isEmpty || bundleID.count > 255 || bundleID.contains(where: { $0.isNewline || $0 == ":" }) {
            issues.append("bundleID must be 1 to 255 characters without ':' or line breaks, e.g. gr.dei.loyalty.")
        }
        if let deviceID, deviceID.isEmpty || deviceID.count > 128 || deviceID.contains(where: { $0.isNewline }) {
            issues.append("deviceID must be 1 to 128 characters on one line (or nil to generate one).")
        }
        if let partnerCredentials, partnerCredentials.username.isEmpty || partnerCredentials.username.contains(":") {
            issues.append("partnerCredentials.username must not be empty or contain ':'.")
        }
        if let maxAttempts, !(1...10).contains(maxAttempts) {
            issues.append("maxAttempts must be within 1...10 (got \(maxAttempts)); the presets use 1 to 3.")
        }
        issues += auth?.validationIssues(prefix: "auth") ?? []
        return issues
    }

    /// Whether `text` is 32 hex digits, or a dashed UUID.
    static func isAppUUID(_ text: String) -> Bool {
        let hex = text.count == 36 && UUID(uuidString: text) != nil ? text.replacingOccurrences(of: "-", with: "") : text
        return hex.count == 32 && hex.allSatisfy { $0.isASCII && $0.isHexDigit }
    }
}

extension ProviderSection {
    /// Warply's section: its app UUID, merchant id, environment and the rest of ``WarplyConfiguration``.
    ///
    /// ```swift
    /// try configuration.add(.warply(WarplyConfiguration(appUUID: "0086a2088301440792091b9f814c2267", merchantID: "20113")))
    /// ```
    public static func warply(_ configuration: WarplyConfiguration) -> ProviderSection {
        ProviderSection(WarplyProvider.self, configuration)
    }
}
