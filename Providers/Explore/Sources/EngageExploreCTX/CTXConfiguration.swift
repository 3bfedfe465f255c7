@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageExploreGiftCards
import Foundation

/// Where and how the CTX ("DashSpend") client talks to its API.
///
/// ```json
/// {"baseURL": "https://spend.ctx.com/", "clientID": "dash-wallet", "acceptLanguage": "en"}
/// ```
/// Production is `https://spend.ctx.com/`, staging `https://staging.spend.ctx.com/`.
public struct CTXConfiguration: ProviderConfiguration, Hashable {
    /// The API root; paths such as `login` and `gift-cards` are resolved against it.
    public var baseURL: URL
    /// The client id CTX issued, sent as `X-Client-Id` on every request.
    public var clientID: String
    /// Sent as `Accept-Language` (`en` by default).
    public var acceptLanguage: String

    /// A configuration.
    public init(baseURL: URL, clientID: String, acceptLanguage: String = "en") {
        self.baseURL = baseURL
        self.clientID = clientID
        self.acceptLanguage = acceptLanguage
    }

    /// Every problem with the settings, each a sentence naming the setting (`ctx.baseURL …`).
    public func validationIssues() -> [String] {
        var issues: [String] = []
        if !(baseURL.scheme.map { ["http", "https"].contains($0.lowercased()) } ?? false) || baseURL.host == nil {
            issues.append("ctx.baseURL must be an absolute http(s) URL.")
        }
        if clientID.trimmingCharacters(in: .whitespaces).isEmpty {
            issues.append("ctx.clientID must not be empty: it is sent as X-Client-Id.")
        }
        let languageCharacters = acceptLanguage.allSatisfy { $0.isLetter || $0.isNumber || "-,;=.".contains($0) }
        if acceptLanguage.isEmpty || !languageCharacters {
            issues.append("ctx.acceptLanguage must be a language tag such as en or en-US.")
        }
        return issues
    }
}
