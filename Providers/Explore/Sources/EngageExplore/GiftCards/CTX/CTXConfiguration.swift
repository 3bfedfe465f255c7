import EngageCore
import Foundation

/// Where and how the CTX ("DashSpend") client talks to its API.
///
/// ```json
/// {"baseURL": "https://spend.ctx.com/", "clientID": "dash-wallet", "acceptLanguage": "en"}
/// ```
/// Production is `https://spend.ctx.com/`, staging `https://staging.spend.ctx.com/`.
public struct CTXConfiguration: Codable, Sendable, Hashable {
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

    /// Throws `.invalidConfiguration` with a sentence naming the setting when something is wrong.
    public func validate(for providerID: ProviderID = .explore) throws(EngageError) {
        guard let scheme = baseURL.scheme?.lowercased(), ["http", "https"].contains(scheme), baseURL.host != nil else {
            throw EngageError(.invalidConfiguration, "ctx.baseURL must be an absolute http(s) URL.", providerID: providerID)
        }
        guard !clientID.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw EngageError(.invalidConfiguration, "ctx.clientID must not be empty: it is sent as X-Client-Id.", providerID: providerID)
        }
        guard !acceptLanguage.isEmpty, acceptLanguage.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "," || $0 == ";" || $0 == "=" || $0 == "." || $0.isNumber }) else {
            throw EngageError(.invalidConfiguration, "ctx.acceptLanguage must be a language tag such as en or en-US.", providerID: providerID)
        }
    }
}
