@_spi(EngageProvider) import EngageCore
import Foundation

/// How the Explore provider finds, keeps and syncs its directory, and who its user is.
///
/// ```swift
/// var explore = ExploreConfiguration(feedURL: URL(string: "https://feed.example.com/explore/"))
/// explore.userCountry = "GR"
/// let dashWallet = ExploreConfiguration(firebaseStorage: .dashWallet)  // the Dash wallet's own source
/// ```
///
/// In an `EngageConfiguration`'s `providers["explore"]` every key is optional:
/// `{"network": "testnet", "feedURL": "https://…", "userCountry": "GR", "syncIntervalSeconds": 86400}`, or
/// `"firebaseStorage": {"bucket": "…", "endpoint": "http://127.0.0.1:9199"}` instead of `feedURL`.
public struct ExploreConfiguration: ProviderConfiguration, Equatable {
    /// The network whose directory is served; each network has its own files.
    public var network: ExploreNetwork
    /// A self-hosted feed publishing `<network>/manifest.json` and the archives. With neither a feed
    /// nor ``firebaseStorage`` nothing syncs (a `databasePath` or an already installed directory is
    /// used); set one of the two, not both.
    public var feedURL: URL?
    /// The Dash wallet's own source: its Firebase Storage objects (``ExploreFirebaseStorage/dashWallet``)
    /// or the same shape elsewhere. Used instead of ``feedURL``.
    public var firebaseStorage: ExploreFirebaseStorage?
    /// Where directories are kept: by default an `explore` folder beside the SDK's database (a
    /// temporary folder with in-memory storage).
    public var directoryFolder: String?
    /// A directory file to query as it is, instead of synced ones (for example one bundled with the
    /// app); it is never written to (its index goes in `directoryFolder`), and syncing is off while
    /// it is set.
    public var databasePath: String?
    /// The user's country (ISO 3166-1 alpha-2). In restricted countries (``restrictedCountries``)
    /// merchants only PiggyCards offers are hidden.
    public var userCountry: String?
    /// Sync at start and then every `syncIntervalSeconds` (the reference apps: launch and every 24 h).
    public var syncsAutomatically: Bool
    /// The time between automatic syncs, in seconds (60 to 30 days).
    public var syncIntervalSeconds: Double
    /// After a failed automatic sync, the wait before trying again, in seconds (1 to a day).
    public var syncRetrySeconds: Double
    /// The largest archive a sync downloads, in megabytes (1 to 4 096).
    public var maxArchiveMegabytes: Int
    /// The largest unpacked directory a sync installs, in megabytes (1 to 16 384).
    public var maxDatabaseMegabytes: Int
    /// The settings of each gift-card source, by source: a source without settings is off.
    /// `giftCards[CTXGiftCards.self] = CTXConfiguration(…)`; in JSON, each source's section sits in
    /// the Explore section under its key (`"ctx": {…}`, `"piggyCards": {…}`).
    public var giftCards: GiftCardSettings

    /// The largest accepted `maxArchiveMegabytes` (4 GiB).
    static let maximumArchiveMegabytes = 4_096
    /// The largest accepted `maxDatabaseMegabytes` (16 GiB).
    static let maximumDatabaseMegabytes = 16_384

    /// Countries where PiggyCards-only merchants are hidden, as in the reference apps.
    public static let restrictedCountries: Set<String> = ["RU", "CU"]

    /// A configuration; by default mainnet, no directory source, automatic syncs every 24 h.
    public init(
        network: ExploreNetwork = .mainnet, feedURL: URL? = nil, firebaseStorage: ExploreFirebaseStorage? = nil,
        directoryFolder: String? = nil, databasePath: String? = nil,
        userCountry: String? = nil, syncsAutomatically: Bool = true, syncIntervalSeconds: Double = 86_400, syncRetrySeconds: Double = 3_600,
        maxArchiveMegabytes: Int = 256, maxDatabaseMegabytes: Int = 1_024
    ) {
        self.network = network
        self.feedURL = feedURL
        self.firebaseStorage = firebaseStorage
        self.directoryFolder = directoryFolder
        self.databasePath = databasePath
        self.userCountry = userCountry
        self.syncsAutomatically = syncsAutomatically
        self.syncIntervalSeconds = syncIntervalSeconds
        self.syncRetrySeconds = syncRetrySeconds
        self.maxArchiveMegabytes = maxArchiveMegabytes
        self.maxDatabaseMegabytes = maxDatabaseMegabytes
        self.giftCards = GiftCardSettings()
    }

    /// Whether a directory source (a feed or Firebase Storage) is set.
    var hasDirectorySource: Bool { feedURL != nil || firebaseStorage != nil }

    /// Whether PiggyCards-only merchants are hidden: always in builds without the `PiggyCards` trait,
    /// and for users in a restricted country.
    public var hidesPiggyCardsOnly: Bool {
        ExploreDirectory.defaultHidesPiggyCardsOnly || isRestrictedCountry
    }

    /// Whether ``userCountry`` is restricted.
    public var isRestrictedCountry: Bool {
        userCountry.map { Self.restrictedCountries.contains($0.trimmingCharacters(in: .whitespaces).uppercased()) } ?? false
    }

    /// What is wrong with the configuration, if anything.
    public func validationIssues() -> [String] {
        var issues: [String] = []
        if let feedURL, !["http", "https"].contains(feedURL.scheme?.lowercased() ?? "") {
            issues.append("feedURL must be an http or https URL")
        }
        if let firebaseStorage {
            issues += firebaseStorage.validationIssues()
            if feedURL != nil { issues.append("set feedURL or firebaseStorage, not both") }
        }
        if !(syncIntervalSeconds >= 60 && syncIntervalSeconds <= 30 * 86_400) {
            issues.append("syncIntervalSeconds must be between 60 and 2592000 (30 days)")
        }
        if !(syncRetrySeconds >= 1 && syncRetrySeconds <= 86_400) { issues.append("syncRetrySeconds must be between 1 and 86400 (a day)") }
        if !(1...Self.maximumArchiveMegabytes).contains(maxArchiveMegabytes) {
            issues.append("maxArchiveMegabytes must be between 1 and \(Self.maximumArchiveMegabytes)")
        }
        if !(1...Self.maximumDatabaseMegabytes).contains(maxDatabaseMegabytes) {
            issues.append("maxDatabaseMegabytes must be between 1 and \(Self.maximumDatabaseMegabytes)")
        }
        if let userCountry, userCountry.trimmingCharacters(in: .whitespaces).count != 2 {
            issues.append("userCountry must be a two-letter ISO 3166-1 code")
        }
        if let path = databasePath, path.isEmpty || path.contains("\0") { issues.append("databasePath is empty or contains a NUL byte") }
        if let path = directoryFolder, path.isEmpty || path.contains("\0") {
            issues.append("directoryFolder is empty or contains a NUL byte")
        }
        for source in BuiltInGiftCardSources.types { issues += giftCards.validationIssues(of: source) }
        return issues
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case network, feedURL, firebaseStorage, directoryFolder, databasePath, userCountry, syncsAutomatically, syncIntervalSeconds,
            syncRetrySeconds
        case maxArchiveMegabytes, maxDatabaseMegabytes
    }

    /// The keys of the gift-card sections, beside the settings above.
    struct SectionKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes a configuration in which every key is optional.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = ExploreConfiguration()
        self.init(
            network: try container.decodeIfPresent(ExploreNetwork.self, forKey: .network) ?? defaults.network,
            feedURL: try container.decodeIfPresent(URL.self, forKey: .feedURL),
            firebaseStorage: try container.decodeIfPresent(ExploreFirebaseStorage.self, forKey: .firebaseStorage),
            directoryFolder: try container.decodeIfPresent(String.self, forKey: .directoryFolder),
            databasePath: try container.decodeIfPresent(String.self, forKey: .databasePath),
            userCountry: try container.decodeIfPresent(String.self, forKey: .userCountry),
            syncsAutomatically: try container.decodeIfPresent(Bool.self, forKey: .syncsAutomatically) ?? defaults.syncsAutomatically,
            syncIntervalSeconds: try container.decodeIfPresent(Double.self, forKey: .syncIntervalSeconds) ?? defaults.syncIntervalSeconds,
            syncRetrySeconds: try container.decodeIfPresent(Double.self, forKey: .syncRetrySeconds) ?? defaults.syncRetrySeconds,
            maxArchiveMegabytes: try container.decodeIfPresent(Int.self, forKey: .maxArchiveMegabytes) ?? defaults.maxArchiveMegabytes,
            maxDatabaseMegabytes: try container.decodeIfPresent(Int.self, forKey: .maxDatabaseMegabytes) ?? defaults.maxDatabaseMegabytes
        )
        // Every source's section is kept as JSON, also of sources this build lacks, so that encoding
        // the configuration again loses nothing; the sources of this build read theirs at start.
        let sections = try decoder.container(keyedBy: SectionKey.self)
        let settingKeys = Set(CodingKeys.allCases.map(\.rawValue))
        // A section of the wrong type is kept too, so that validation names it instead of CTX being off
        // without a word; `null` means "off".
        for key in sections.allKeys where !settingKeys.contains(key.stringValue) {
            let value = try sections.decode(JSONValue.self, forKey: key)
            if value != .null { giftCards.sections[key.stringValue] = value }
        }
    }

    /// Encodes the settings, with each gift-card source's section under its key.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(network, forKey: .network)
        try container.encodeIfPresent(feedURL, forKey: .feedURL)
        try container.encodeIfPresent(firebaseStorage, forKey: .firebaseStorage)
        try container.encodeIfPresent(directoryFolder, forKey: .directoryFolder)
        try container.encodeIfPresent(databasePath, forKey: .databasePath)
        try container.encodeIfPresent(userCountry, forKey: .userCountry)
        try container.encode(syncsAutomatically, forKey: .syncsAutomatically)
        try container.encode(syncIntervalSeconds, forKey: .syncIntervalSeconds)
        try container.encode(syncRetrySeconds, forKey: .syncRetrySeconds)
        try container.encode(maxArchiveMegabytes, forKey: .maxArchiveMegabytes)
        try container.encode(maxDatabaseMegabytes, forKey: .maxDatabaseMegabytes)
        var sections = encoder.container(keyedBy: SectionKey.self)
        for (key, value) in giftCards.sections where CodingKeys(stringValue: key) == nil {
            try sections.encode(value, forKey: SectionKey(stringValue: key))
        }
    }
}

extension ProviderSection {
    /// The merchant explorer's section: its directory source, network and gift-card services (``ExploreConfiguration``).
    ///
    /// ```swift
    /// try configuration.add(.explore(ExploreConfiguration(network: .mainnet)))
    /// ```
    public static func explore(_ configuration: ExploreConfiguration) -> ProviderSection {
        ProviderSection(ExploreProvider.self, configuration)
    }
}
