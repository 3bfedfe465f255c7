import Foundation

extension WarplyAuthRequest {
    /// `POST /user/{appUUID}/change_password`: `{"old_password","new_password"}`.
    public struct ChangePassword: Codable, Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// The current password (`old_password`). Secret.
        public var oldPassword: String
        /// The new password (`new_password`). Secret.
        public var newPassword: String

        /// A change from `oldPassword` to `newPassword`.
        public init(oldPassword: String, newPassword: String) {
            self.oldPassword = oldPassword
            self.newPassword = newPassword
        }

        enum CodingKeys: String, CodingKey {
            case oldPassword = "old_password", newPassword = "new_password"
        }

        /// Both passwords redacted.
        public var description: String { "WarplyAuthRequest.ChangePassword(oldPassword: <redacted>, newPassword: <redacted>)" }

        /// The same redacted summary as ``description``.
        public var debugDescription: String { description }

        /// Reflection (`dump`, debuggers) shows only the same redacted summary.
        public var customMirror: Mirror { Mirror(self, children: ["summary": description], displayStyle: .struct) }
    }

    /// `POST /user/{appUUID}/password_reset`: `{"email"}`.
    public struct ResetPassword: Codable, Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// The e-mail address the reset link goes to (`email`). Personal: never printed.
        public var email: String

        /// A reset for the account of `email`.
        public init(email: String) { self.email = email }

        /// The e-mail address redacted.
        public var description: String { "WarplyAuthRequest.ResetPassword(email: <redacted>)" }

        /// The same redacted summary as ``description``.
        public var debugDescription: String { description }

        /// Reflection (`dump`, debuggers) shows only the same redacted summary.
        public var customMirror: Mirror { Mirror(self, children: ["summary": description], displayStyle: .struct) }
    }

    /// `POST /user/{appUUID}/otp/generate`: `{"msisdn"}`.
    public struct RequestOTP: Codable, Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// The phone number the code is sent to, in international form (`msisdn`). Personal: never printed.
        public var msisdn: String

        /// A one-time code request for `phoneNumber`.
        public init(phoneNumber: String) { msisdn = phoneNumber }

        /// The phone number redacted.
        public var description: String { "WarplyAuthRequest.RequestOTP(msisdn: <redacted>)" }

        /// The same redacted summary as ``description``.
        public var debugDescription: String { description }

        /// Reflection (`dump`, debuggers) shows only the same redacted summary.
        public var customMirror: Mirror { Mirror(self, children: ["summary": description], displayStyle: .struct) }
    }
}
