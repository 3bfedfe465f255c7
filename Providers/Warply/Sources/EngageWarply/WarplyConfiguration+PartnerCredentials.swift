@_spi(EngageProvider) import EngageCore
import Foundation

extension WarplyConfiguration {
    /// Basic-auth credentials of the Cosmote partner endpoints. Never printed: `description`,
    /// `debugDescription` and reflection (`dump`, debuggers) show only `PartnerCredentials(<redacted>)`.
    public struct PartnerCredentials: Codable, Sendable, Equatable {
        /// The user name.
        public var username: String
        /// The password. Secret.
        public var password: String

        /// Credentials.
        public init(username: String, password: String) {
            self.username = username
            self.password = password
        }

        /// `PartnerCredentials(<redacted>)`.
        public var description: String { "PartnerCredentials(<redacted>)" }
    }
}

/// Secrets stay out of `dump`, debuggers and `Mirror` (`SecretBearing`).
@_spi(EngageProvider) extension WarplyConfiguration.PartnerCredentials: SecretBearing {}
