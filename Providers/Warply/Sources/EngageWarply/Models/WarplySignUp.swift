@_spi(EngageProvider) import EngageCore
import Foundation

/// A new Warply account, for ``WarplyProvider/register(_:)``: the e-mail address and password it
/// signs in with, and the profile details Warply keeps from the start.
///
/// Every value is personal or secret: `description`, `debugDescription` and mirrors show none of them.
public struct WarplySignUp: Sendable, Hashable {
    /// The e-mail address of the account (at most 254 characters).
    public var email: String
    /// The account's password (1 to 256 characters; Warply may require more, and says so).
    public var password: String
    /// The user's first name, shown in their profile (at most 128 characters on one line).
    public var firstName: String?
    /// The user's last name, shown in their profile (at most 128 characters on one line).
    public var lastName: String?
    /// The user's mobile number, 6 to 15 digits with an optional `+` (spaces and dashes are ignored).
    public var phoneNumber: String?

    /// A sign-up; the names and the phone number are optional.
    public init(email: String, password: String, firstName: String? = nil, lastName: String? = nil, phoneNumber: String? = nil) {
        self.email = email
        self.password = password
        self.firstName = firstName
        self.lastName = lastName
        self.phoneNumber = phoneNumber
    }

    /// The type's name with every value redacted.
    public var description: String { "WarplySignUp(<redacted>)" }
}

/// Secrets stay out of `dump`, debuggers and `Mirror` (`SecretBearing`).
@_spi(EngageProvider) extension WarplySignUp: SecretBearing {}
