import Foundation

extension WarplyAuthRequest {
    /// `POST /partners/dei/app_login`: `{"email"}`.
    public struct DEILogin: Codable, Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// The user's e-mail address (`email`). Personal: never printed.
        public var email: String

        /// A DEI login of `email`.
        public init(email: String) { self.email = email }

        /// The e-mail address redacted.
        public var description: String { "WarplyAuthRequest.DEILogin(email: <redacted>)" }

        /// The same redacted summary as ``description``.
        public var debugDescription: String { description }

        /// Reflection (`dump`, debuggers) shows only the same redacted summary.
        public var customMirror: Mirror { Mirror(self, children: ["summary": description], displayStyle: .struct) }
    }

    /// `POST /partners/cosmote/verify`: `{"guid","app_uuid","ticket"}`.
    public struct VerifyTicket: Codable, Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// The Cosmote user's GUID (`guid`). Identifies the user: never printed.
        public var guid: String
        /// The application's UUID (`app_uuid`).
        public var appUUID: String
        /// The one-time ticket issued by Cosmote (`ticket`). Secret.
        public var ticket: String

        /// A verification of `ticket` for the user `guid` of the app `appUUID`.
        public init(guid: String, appUUID: String, ticket: String) {
            self.guid = guid
            self.appUUID = appUUID
            self.ticket = ticket
        }

        enum CodingKeys: String, CodingKey {
            case guid, appUUID = "app_uuid", ticket
        }

        /// The app UUID; the GUID and the ticket are redacted.
        public var description: String { "WarplyAuthRequest.VerifyTicket(guid: <redacted>, appUUID: \(appUUID), ticket: <redacted>)" }

        /// The same redacted summary as ``description``.
        public var debugDescription: String { description }

        /// Reflection (`dump`, debuggers) shows only the same redacted summary.
        public var customMirror: Mirror { Mirror(self, children: ["summary": description], displayStyle: .struct) }
    }

    /// `POST /partners/oauth/{appUUID}/token` (basic auth): `{"user_identifier"}`.
    public struct CosmoteUser: Codable, Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// The Cosmote user's GUID (`user_identifier`). Identifies the user: never printed.
        public var userIdentifier: String

        /// A login of the Cosmote user `guid`.
        public init(guid: String) { userIdentifier = guid }

        enum CodingKeys: String, CodingKey {
            case userIdentifier = "user_identifier"
        }

        /// The user identifier redacted.
        public var description: String { "WarplyAuthRequest.CosmoteUser(userIdentifier: <redacted>)" }

        /// The same redacted summary as ``description``.
        public var debugDescription: String { description }

        /// Reflection (`dump`, debuggers) shows only the same redacted summary.
        public var customMirror: Mirror { Mirror(self, children: ["summary": description], displayStyle: .struct) }
    }
}
