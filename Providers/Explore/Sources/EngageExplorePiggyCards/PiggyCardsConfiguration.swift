@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExploreGiftCards
import Foundation

/// Where the PiggyCards client talks to: production is `https://api.piggy.cards/dash/v1/`.
public struct PiggyCardsConfiguration: ProviderConfiguration, Hashable {
    /// The API root; paths such as `login` and `orders` are resolved against it.
    public var baseURL: URL

    /// A configuration.
    public init(baseURL: URL) {
        self.baseURL = baseURL
    }

    /// Every problem with the settings, each a sentence naming the setting (`piggyCards.baseURL …`).
    public func validationIssues() -> [String] {
        guard baseURL.scheme.map({ ["http", "https"].contains($0.lowercased()) }) ?? false, baseURL.host != nil else {
            return ["piggyCards.baseURL must be an absolute http(s) URL."]
        }
        return []
    }
}
