@_spi(EngageProvider) import EngageCore
import Foundation

extension WarplyAuthRequest {
    /// `POST /user/{appUUID}/register`: `{"email","password","firstname","lastname","msisdn","language"}`
    /// (the names and the phone number only when given). Answered like a login: tokens in the result form.
    package struct RegisterUser: Codable, Sendable, Hashable, SecretBearing {
        /// The account's e-mail address (`email`). Personal: never printed.
        package var email: String
        /// The account's password (`password`). Secret.
        package var password: String
        /// The user's first name (`firstname`). Personal: never printed.
        package var firstName: String?
        /// The user's last name (`lastname`). Personal: never printed.
        package var lastName: String?
        /// The user's phone number, digits with an optional `+` (`msisdn`). Personal: never printed.
        package var msisdn: String?
        /// The user's language (`language`, `el` or `en`).
        package var language: String

        /// A sign-up with these values, the phone number already normalised.
        package init(email: String, password: String, firstName: String?, lastName: String?, msisdn: String?, language: String) {
            self.email = email
            self.password = password
            self.firstName = firstName
            self.lastName = lastName
            self.msisdn = msisdn
            self.language = language
        }

        enum CodingKeys: String, CodingKey {
            case email, password, firstName = "firstname", lastName = "lastname", msisdn, language
        }

        /// Everything but the language redacted.
        package var description: String { "WarplyAuthRequest.RegisterUser(<redacted>, language: \(language))" }
    }

    /// `POST /user/{appUUID}/change_password`: `{"old_password","new_password"}`.
    package struct ChangePassword: Codable, Sendable, Hashable, SecretBearing {
        /// The current password (`old_password`). Secret.
        package var oldPassword: String
        /// The new password (`new_password`). Secret.
        package var newPassword: String

        /// A change from `oldPassword` to `newPassword`.
        package init(oldPassword: String, newPassword: String) {
            self.oldPassword = oldPassword
            self.newPassword = newPassword
        }

        enum CodingKeys: String, CodingKey {
            case oldPassword = "old_password", newPassword = "new_password"
        }

        /// Both passwords redacted.
        package var description: String { "WarplyAuthRequest.ChangePassword(oldPassword: <redacted>, newPassword: <redacted>)" }
    }

    /// `POST /user/{appUUID}/password_reset`: `{"email"}`.
    package struct ResetPassword: Codable, Sendable, Hashable, SecretBearing {
        /// The e-mail address the reset link goes to (`email`). Personal: never printed.
        package var email: String

        /// A reset for the account of `email`.
        package init(email: String) { self.email = email }

        /// The e-mail address redacted.
        package var description: String { "WarplyAuthRequest.ResetPassword(email: <redacted>)" }
    }

    /// `POST /user/{appUUID}/otp/generate`: `{"msisdn"}`.
    package struct RequestOTP: Codable, Sendable, Hashable, SecretBearing {
        /// The phone number the code is sent to, in international form (`msisdn`). Personal: never printed.
        package var msisdn: String

        /// A one-time code request for `phoneNumber`.
        package init(phoneNumber: String) { msisdn = phoneNumber }

        /// The phone number redacted.
        package var description: String { "WarplyAuthRequest.RequestOTP(msisdn: <redacted>)" }
    }
}
