@_spi(EngageProvider) import EngageCore
import Foundation

/// Which Warply backend to talk to.
public enum WarplyEnvironment: Sendable, Hashable, Codable, CustomStringConvertible {
    /// DEI UAT, `https://engage-uat.dei.gr`.
    case development
    /// DEI production, `https://engage-prod.dei.gr`.
    case production
    /// Any other Warply-compatible backend (a local emulator, `https://engage.warp.ly`, a proxy).
    case custom(URL)

    /// The UAT base URL.
    public static let developmentURL = URL(literal: "https://engage-uat.dei.gr")
    /// The production base URL.
    public static let productionURL = URL(literal: "https://engage-prod.dei.gr")

    /// The base URL requests are sent to.
    public var baseURL: URL {
        switch self {
        case .development: Self.developmentURL
        case .production: Self.productionURL
        case let .custom(url): url
        }
    }

    /// `development`, `production` or the custom URL.
    public var description: String {
        switch self {
        case .development: "development"
        case .production: "production"
        case let .custom(url): url.absoluteString
        }
    }

    /// Decodes `"development"`, `"production"` or a URL string.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        switch text {
        case "development": self = .development
        case "production": self = .production
        default:
            guard let url = URL(string: text), url.scheme != nil, url.host != nil else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath,
                        debugDescription: "Expected \"development\", \"production\" or an absolute URL, found '\(text.prefix(100))'."
                    ))
            }
            self = .custom(url)
        }
    }

    /// Encodes as ``description``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// The language of campaigns, coupons, merchants and articles.
public enum WarplyLanguage: String, Sendable, Hashable, Codable, CaseIterable {
    /// Greek.
    case greek = "el"
    /// English.
    case english = "en"
}
