@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import Engage
import Foundation

/// Where the Acme backend is and the API key it gave your app.
public struct AcmeConfiguration: ProviderConfiguration, CustomStringConvertible, CustomReflectable {
    /// The backend, e.g. `https://api.acme.example` (loopback `http` is allowed for the emulator).
    public var baseURL: URL
    /// The API key, sent as `Authorization: Bearer <key>`; never logged or described.
    public var apiKey: String
    /// The most deals one request asks for (1...100).
    public var pageSize: Int

    /// A configuration; `pageSize` defaults to 20.
    public init(baseURL: URL, apiKey: String, pageSize: Int = 20) {
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.pageSize = pageSize
    }

    /// One sentence per unusable setting.
    public func validationIssues() -> [String] {
        var issues: [String] = []
        if baseURL.host == nil { issues.append("baseURL must be an absolute URL, e.g. https://api.acme.example.") }
        if apiKey.isEmpty || apiKey.contains(where: \.isWhitespace) {
            issues.append("apiKey must be the key from the Acme console, without spaces.")
        }
        if !(1...100).contains(pageSize) { issues.append("pageSize must be within 1...100 (got \(pageSize)).") }
        return issues
    }

    /// The settings with the API key redacted.
    public var description: String { "AcmeConfiguration(baseURL: \(baseURL), apiKey: <redacted>, pageSize: \(pageSize))" }

    /// The API key stays out of `dump` and debuggers.
    public var customMirror: Mirror { Mirror(self, children: ["baseURL": baseURL, "pageSize": pageSize]) }
}
