@_spi(EngageProvider) import EngageCore
import Foundation

/// How the Youll provider talks to a Youll backend.
///
/// Only `graphQLEndpoint` is required; in JSON (the `youll` section of `EngageConfiguration.providers`):
/// ```json
/// {
///   "graphQLEndpoint": "https://api.example.com/v1/graphql",
///   "restBaseURL": "https://api.example.com/api/rest",
///   "extraLang": "el", "appVersion": "4.2.0", "defaultCachePolicy": "cacheFirst"
/// }
/// ```
/// The user's session is the host app's: hand it over with ``YoullProvider/setSession(_:)``.
public struct YoullConfiguration: ProviderConfiguration, Equatable {
    /// The Hasura GraphQL endpoint, the whole URL (conventionally ending in `/v1/graphql`).
    public var graphQLEndpoint: URL
    /// The base of the REST API. Without it, REST operations (likes, profile, promo offers...) fail
    /// with `.notConfigured` and send nothing.
    public var restBaseURL: URL?
    /// The language content is translated into when a translation exists (`extraLang`), e.g. `el`;
    /// empty for the backend's default language.
    public var extraLang: String
    /// The platform sent as `X-Youll-Platform` on REST requests (`ios` by default).
    public var platform: String
    /// The app version sent as `X-Youll-App-Version` on REST requests, if any.
    public var appVersion: String?
    /// The device id sent as `device-id` when the host's session names none. When `nil`, one is
    /// generated on first use and persisted (until ``YoullProvider/logOut()`` clears Youll's data).
    public var deviceID: String?
    /// The cache policy of queries that are not given one.
    public var defaultCachePolicy: YoullCachePolicy
    /// The operations that need the user's access token, by operation name (``YoullQuery/name``, ``YoullMutation/name``).
    /// `nil` means every user-scoped operation (favourites, likes, playlists, the user's events,
    /// quizzes, meals, journeys, payments, the profile...). The host session has the last word
    /// (``YoullSession/requiresToken(operation:byDefault:)``).
    public var tokenRequiredOperations: Set<String>?
    /// The most bytes the query cache keeps; the least recently used entries go first (4 MiB by
    /// default, 64 KiB to 1 GiB). The decoded answers of the latest hits also stay in memory, up to
    /// this or 2 MiB, whichever is smaller, so a repeated hit does not decode again.
    public var cacheCapacityBytes: Int
    /// How long a cached answer may be served, in seconds (a day by default, at most 30 days): an
    /// older one is a miss and is dropped.
    public var cacheLifetimeSeconds: Double

    /// A configuration for the backend at `graphQLEndpoint`.
    public init(
        graphQLEndpoint: URL,
        restBaseURL: URL? = nil,
        extraLang: String = "",
        platform: String = "ios",
        appVersion: String? = nil,
        deviceID: String? = nil,
        defaultCachePolicy: YoullCachePolicy = .networkOnly,
        tokenRequiredOperations: Set<String>? = nil,
        cacheCapacityBytes: Int = 4 * 1024 * 1024,
        cacheLifetimeSeconds: Double = 86_400
    ) {
        self.graphQLEndpoint = graphQLEndpoint
        self.restBaseURL = restBaseURL
        self.extraLang = extraLang
        self.platform = platform
        self.appVersion = appVersion
        self.deviceID = deviceID
        self.defaultCachePolicy = defaultCachePolicy
        self.tokenRequiredOperations = tokenRequiredOperations
        self.cacheCapacityBytes = cacheCapacityBytes
        self.cacheLifetimeSeconds = cacheLifetimeSeconds
    }

    enum CodingKeys: String, CodingKey {
        case graphQLEndpoint, restBaseURL, extraLang, platform, appVersion, deviceID, defaultCachePolicy, tokenRequiredOperations
        case cacheCapacityBytes, cacheLifetimeSeconds
    }

    /// Decodes the JSON form; everything but `graphQLEndpoint` may be left out.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            graphQLEndpoint: try container.decode(URL.self, forKey: .graphQLEndpoint),
            restBaseURL: try container.decodeIfPresent(URL.self, forKey: .restBaseURL),
            extraLang: try container.decodeIfPresent(String.self, forKey: .extraLang) ?? "",
            platform: try container.decodeIfPresent(String.self, forKey: .platform) ?? "ios",
            appVersion: try container.decodeIfPresent(String.self, forKey: .appVersion),
            deviceID: try container.decodeIfPresent(String.self, forKey: .deviceID),
            defaultCachePolicy: try container.decodeIfPresent(YoullCachePolicy.self, forKey: .defaultCachePolicy) ?? .networkOnly,
            tokenRequiredOperations: try container.decodeIfPresent(Set<String>.self, forKey: .tokenRequiredOperations),
            cacheCapacityBytes: try container.decodeIfPresent(Int.self, forKey: .cacheCapacityBytes) ?? 4 * 1024 * 1024,
            cacheLifetimeSeconds: try container.decodeIfPresent(Double.self, forKey: .cacheLifetimeSeconds) ?? 86_400
        )
    }

    /// Names what cannot work: relative or non-HTTP URLs, a language code that is not 2–8 ASCII
    /// letters (with an optional region), header values with control characters, a cache under 64 KiB
    /// or over 1 GiB, a cache lifetime that is not positive or over 30 days.
    public func validationIssues() -> [String] {
        var issues: [String] = []
        for (name, url) in [("graphQLEndpoint", graphQLEndpoint), ("restBaseURL", restBaseURL)] {
            guard let url else { continue }
            if !["http", "https"].contains(url.scheme?.lowercased() ?? "") || url.host == nil {
                issues.append("\(name) must be an absolute http(s) URL (got '\(Redactor().redact(url: url).prefix(120))').")
            }
        }
        if !extraLang.isEmpty, !Self.isLanguageCode(extraLang) {
            issues.append("extraLang must be a language code such as el or pt-BR (got '\(String(extraLang.prefix(16)))').")
        }
        for (name, value) in [("platform", platform), ("appVersion", appVersion ?? "x"), ("deviceID", deviceID ?? "x")] {
            if value.isEmpty || value.count > 128 || value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value > 0x7E }) {
                issues.append("\(name) must be 1 to 128 printable ASCII characters.")
            }
        }
        if !(65_536...(1 << 30)).contains(cacheCapacityBytes) {
            issues.append("cacheCapacityBytes must be between 65536 and 1073741824 (got \(cacheCapacityBytes)).")
        }
        if !(cacheLifetimeSeconds > 0 && cacheLifetimeSeconds <= 30 * 86_400) {
            issues.append("cacheLifetimeSeconds must be more than 0 and at most 2592000 (30 days) (got \(cacheLifetimeSeconds)).")
        }
        return issues
    }

    static func isLanguageCode(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let language = parts.first, (2...8).contains(language.count), parts.count <= 2,
            language.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return parts.count == 1 || (2...4).contains(parts[1].count) && parts[1].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}

extension ProviderSection {
    /// Youll's section: its GraphQL endpoint and REST base URL and the rest of ``YoullConfiguration``.
    ///
    /// ```swift
    /// try configuration.add(.youll(YoullConfiguration(graphQLEndpoint: URL(string: "https://api.example.com/v1/graphql")!)))
    /// ```
    public static func youll(_ configuration: YoullConfiguration) -> ProviderSection {
        ProviderSection(YoullProvider.self, configuration)
    }
}
