#if PiggyCards
    import EngageCore
    import Foundation

    /// Where the PiggyCards client talks to: production is `https://api.piggy.cards/dash/v1/`.
    public struct PiggyCardsConfiguration: Codable, Sendable, Hashable {
        /// The API root; paths such as `login` and `orders` are resolved against it.
        public var baseURL: URL

        /// A configuration.
        public init(baseURL: URL) {
            self.baseURL = baseURL
        }

        /// Throws `.invalidConfiguration` naming the setting when the URL is not absolute http(s).
        public func validate(for providerID: ProviderID = .explore) throws(EngageError) {
            guard let scheme = baseURL.scheme?.lowercased(), ["http", "https"].contains(scheme), baseURL.host != nil else {
                throw EngageError(.invalidConfiguration, "piggyCards.baseURL must be an absolute http(s) URL.", providerID: providerID)
            }
        }
    }
#endif
