@_spi(EngageProvider) import EngageCore
import Foundation

/// The parameters handed to a campaign's web page (the seed's `constructCampaignParams`). They include
/// the session tokens and client credentials, so `description`, `debugDescription` and reflection
/// (`dump`, debuggers) show only the parameter names; use ``jsonString()`` to pass them to the page.
public struct WarplyCampaignParameters: Sendable, Hashable {
    /// The parameters by name. Secret: hand them only to the campaign page.
    public let values: [String: String]

    /// Parameters with these values.
    init(values: [String: String]) {
        self.values = values
    }

    /// The parameters as a JSON object (keys sorted).
    public func jsonString() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(values), as: UTF8.self)
    }

    /// The parameter names only.
    public var description: String { "WarplyCampaignParameters(\(values.keys.sorted().joined(separator: ", ")))" }
}

/// Secrets stay out of `dump`, debuggers and `Mirror` (`SecretBearing`).
@_spi(EngageProvider) extension WarplyCampaignParameters: SecretBearing {}
