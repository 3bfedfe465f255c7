@_spi(EngageProvider) import EngageCore
import Foundation

/// How the Crobox provider talks to Crobox.
///
/// In JSON (the `crobox` section of `EngageConfiguration.providers`) only `containerID` is required:
/// ```json
/// { "containerID": "xlrc9t", "locale": "en_US", "currency": "EUR" }
/// ```
public struct CroboxConfiguration: ProviderConfiguration, Equatable {
    /// The Crobox API; `https://api.crobox.com` by default.
    public var baseURL: URL
    /// Your container id (`cid`), e.g. `xlrc9t`.
    public var containerID: String
    /// The visitor id (`pid`). When `nil`, one is generated on first start and persisted, so it stays
    /// the same across launches.
    public var visitorID: UUID?
    /// Locale in `en_US` form (`lc`).
    public var locale: String?
    /// ISO 4217 currency code (`cc`).
    public var currency: String?
    /// Your own user id (`uid`).
    public var userID: String?
    /// Timezone offset from UTC in hours (`tz`).
    public var timezoneOffsetHours: Int?
    /// Custom properties sent with every request (`cp.<key>`); a page's own properties override them.
    public var customProperties: [String: String]
    /// Which official SDK's request dialect to speak (`sdk` 1 = iOS, 2 = Android).
    public var dialect: CroboxDialect
    /// Whether events carry the Android SDK's `z` checksum.
    public var includesChecksum: Bool
    /// Whether the provider reports its own failures as `t=error&tg=sdk` events (at most one per
    /// operation every five minutes, so a failing network never produces a storm).
    public var reportsOwnErrors: Bool

    /// Crobox's production API, `https://api.crobox.com`: the base URL unless one is configured.
    public static let defaultBaseURL = URL(literal: "https://api.crobox.com")

    public init(
        containerID: String,
        baseURL: URL = CroboxConfiguration.defaultBaseURL,
        visitorID: UUID? = nil,
        locale: String? = nil,
        currency: String? = nil,
        userID: String? = nil,
        timezoneOffsetHours: Int? = nil,
        customProperties: [String: String] = [:],
        dialect: CroboxDialect = .iOS,
        includesChecksum: Bool = false,
        reportsOwnErrors: Bool = true
    ) {
        self.containerID = containerID
        self.baseURL = baseURL
        self.visitorID = visitorID
        self.locale = locale
        self.currency = currency
        self.userID = userID
        self.timezoneOffsetHours = timezoneOffsetHours
        self.customProperties = customProperties
        self.dialect = dialect
        self.includesChecksum = includesChecksum
        self.reportsOwnErrors = reportsOwnErrors
    }

    enum CodingKeys: String, CodingKey {
        case baseURL, containerID, visitorID, locale, currency, userID, timezoneOffsetHours, customProperties, dialect
        case includesChecksum, reportsOwnErrors
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            containerID: try container.decode(String.self, forKey: .containerID),
            baseURL: try container.decodeIfPresent(URL.self, forKey: .baseURL) ?? Self.defaultBaseURL,
            visitorID: try container.decodeIfPresent(UUID.self, forKey: .visitorID),
            locale: try container.decodeIfPresent(String.self, forKey: .locale),
            currency: try container.decodeIfPresent(String.self, forKey: .currency),
            userID: try container.decodeIfPresent(String.self, forKey: .userID),
            timezoneOffsetHours: try container.decodeIfPresent(Int.self, forKey: .timezoneOffsetHours),
            customProperties: try container.decodeIfPresent([String: String].self, forKey: .customProperties) ?? [:],
            dialect: try container.decodeIfPresent(CroboxDialect.self, forKey: .dialect) ?? .iOS,
            includesChecksum: try container.decodeIfPresent(Bool.self, forKey: .includesChecksum) ?? false,
            reportsOwnErrors: try container.decodeIfPresent(Bool.self, forKey: .reportsOwnErrors) ?? true
        )
    }

    public func validationIssues() -> [String] {
        var issues: [String] = []
        let idCharacters = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_"))
        if containerID.isEmpty || containerID.count > 64
            || containerID.unicodeScalars.contains(where: { !idCharacters.contains($0) || !$0.isASCII })
        {
            issues.append("containerID must be 1 to 64 ASCII letters, digits, '-' or '_' (got '\(containerID.prefix(64))').")
        }
        if let locale, !Self.isLocale(locale) {
            issues.append("locale must look like en_US (got '\(locale.prefix(16))').")
        }
        if let currency, !(currency.count == 3 && currency.allSatisfy { $0.isASCII && $0.isUppercase }) {
            issues.append("currency must be an ISO 4217 code such as EUR (got '\(currency.prefix(8))').")
        }
        if let timezoneOffsetHours, !(-12...14).contains(timezoneOffsetHours) {
            issues.append("timezoneOffsetHours must be within -12...14 (got \(timezoneOffsetHours)).")
        }
        if let userID, userID.count > 256 { issues.append("userID must be at most 256 characters.") }
        if customProperties.count > 50 { issues.append("customProperties may hold at most 50 entries.") }
        if customProperties.keys.contains(where: { $0.isEmpty || $0.count > 64 }) {
            issues.append("customProperties keys must be 1 to 64 characters.")
        }
        if baseURL.scheme == nil || baseURL.host == nil { issues.append("baseURL must be an absolute URL.") }
        return issues
    }

    static func isLocale(_ text: String) -> Bool {
        let parts = text.split(separator: "_", omittingEmptySubsequences: false)
        guard let language = parts.first, (2...3).contains(language.count), language.allSatisfy({ $0.isASCII && $0.isLowercase }) else {
            return false
        }
        guard parts.count <= 2 else { return false }
        return parts.count == 1 || (parts[1].count == 2 && parts[1].allSatisfy { $0.isASCII && $0.isUppercase })
    }
}

/// Which official Crobox SDK's request dialect the provider speaks: the value of the `sdk` parameter
/// and the way impressions are keyed (`[i]` for iOS, `imp[i]` for Android). Crobox reports traffic by
/// dialect, so pick the one your Crobox container was set up with.
public enum CroboxDialect: Int, Codable, Sendable, CaseIterable {
    /// `sdk=1`, impressions keyed `[i]`.
    case iOS = 1
    /// `sdk=2`, impressions keyed `imp[i]`.
    case android = 2
}

extension ProviderSection {
    /// Crobox's section: its container id, locale and the rest of ``CroboxConfiguration``.
    ///
    /// ```swift
    /// try configuration.add(.crobox(CroboxConfiguration(containerID: "xlrc9t")))
    /// ```
    public static func crobox(_ configuration: CroboxConfiguration) -> ProviderSection {
        ProviderSection(CroboxProvider.self, configuration)
    }
}
