@_spi(EngageProvider) import EngageCore
import Foundation

extension WarplyAuthRequest {
    /// `POST /partners/dei/app_login`: `{"email"}`.
    package struct DEILogin: Codable, Sendable, Hashable, SecretBearing {
        /// The user's e-mail address (`email`). Personal: never printed.
        package var email: String

        /// A DEI login of `email`.
        package init(email: String) { self.email = email }

        /// The e-mail address redacted.
        package var description: String { "WarplyAuthRequest.DEILogin(email: <redacted>)" }
    }

    /// `POST /partners/cosmote/verify`: `{"guid","app_uuid","ticket"}`.
    package struct VerifyTicket: Codable, Sendable, Hashable, SecretBearing {
        /// The Cosmote user's GUID (`guid`). Identifies the user: never printed.
        package var guid: String
        /// The application's UUID (`app_uuid`).
        package var appUUID: String
        /// The one-time ticket issued by Cosmote (`ticket`). Secret.
        package var ticket: String

        /// A verification of `ticket` for the user `guid` of the app `appUUID`.
        package init(guid: String, appUUID: String, ticket: String) {
            self.guid = guid
            self.appUUID = appUUID
            self.ticket = ticket
        }

        enum CodingKeys: String, CodingKey {
            case guid, appUUID = "app_uuid", ticket
        }

        /// The app UUID; the GUID and the ticket are redacted.
        package var description: String { "WarplyAuthRequest.VerifyTicket(guid: <redacted>, appUUID: \(appUUID), ticket: <redacted>)" }
    }

    /// `POST /partners/oauth/{appUUID}/token` (basic auth): `{"user_identifier"}`.
    package struct CosmoteUser: Codable, Sendable, Hashable, SecretBearing {
        /// The Cosmote user's GUID (`user_identifier`). Identifies the user: never printed.
        package var userIdentifier: String

        /// A login of the Cosmote user `guid`.
        package init(guid: String) { userIdentifier = guid }

        enum CodingKeys: String, CodingKey {
            case userIdentifier = "user_identifier"
        }

        /// The user identifier redacted.
        package var description: String { "WarplyAuthRequest.CosmoteUser(userIdentifier: <redacted>)" }
    }
}
