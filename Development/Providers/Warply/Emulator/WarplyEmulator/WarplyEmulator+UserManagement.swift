@_spi(EngageProvider) import EngageSandbox
import Hummingbird
@_spi(EngageProvider) import EngageCore

extension WarplyEmulator {
    /// The shortest new password `change_password` accepts.
    public static let minimumPasswordLength = 8

    func addUserManagementRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
        group.post("user/:appUUID/register") { request, context in
            try await self.respond {
                let data = try await self.readBody(request, context: context)
                try self.verifySigned(request, environment: environment)
                let body = try self.decode(
                    ServedRequest.RegisterUser.self, from: data,
                    expected: #"{"email","password","firstname","lastname","msisdn","language"}"#)
                if let problem = Self.signUpProblem(body) { return try Self.loginRefused(problem) }
                let created = self.state.withLock { $0.signUp(body, environment: environment) }
                guard created else { return try Self.loginRefused("A user with this email address exists already.") }
                return try self.login(email: body.email, environment: environment)
            }
        }
        group.post("user/:appUUID/change_password") { request, context in
            try await self.respond {
                let data = try await self.readBody(request, context: context)
                try self.verifySigned(request, environment: environment)
                _ = try self.authenticate(request, environment: environment)
                let body = try self.decode(ServedRequest.ChangePassword.self, from: data, expected: #"{"old_password","new_password"}"#)
                guard !body.oldPassword.isEmpty else { return try Self.statusAnswer(0, message: "The old password is required.") }
                guard body.oldPassword != body.newPassword else {
                    return try Self.statusAnswer(0, message: "The new password must differ from the old one.")
                }
                guard body.newPassword.count >= Self.minimumPasswordLength else {
                    return try Self.statusAnswer(
                        0, message: "The new password must have at least \(Self.minimumPasswordLength) characters.")
                }
                return try Self.statusAnswer(1)
            }
        }
        group.post("user/:appUUID/password_reset") { request, context in
            try await self.respond {
                let data = try await self.readBody(request, context: context)
                try self.verifySigned(request, environment: environment)
                let body = try self.decode(ServedRequest.ResetPassword.self, from: data, expected: #"{"email":"…"}"#)
                guard Self.isEmail(body.email) else { return try Self.statusAnswer(0, message: "Invalid email address.") }
                self.state.withLock { $0.passwordResetRequests.append(body.email) }
                return try Self.statusAnswer(1)
            }
        }
        group.post("user/:appUUID/otp/generate") { request, context in
            try await self.respond {
                let data = try await self.readBody(request, context: context)
                try self.verifySigned(request, environment: environment)
                let body = try self.decode(ServedRequest.RequestOTP.self, from: data, expected: #"{"msisdn":"…"}"#)
                guard Self.isPhoneNumber(body.msisdn) else { return try Self.statusAnswer(0, message: "Invalid phone number.") }
                self.state.withLock { $0.otpRequests.append(body.msisdn) }
                return try Self.statusAnswer(1)
            }
        }
    }

    /// Why the backend refuses a sign-up, if it does: an address that is not an email, a password
    /// shorter than ``minimumPasswordLength``, a name over 128 characters or on several lines, a phone
    /// number it does not take, or a language other than `el` and `en`.
    static func signUpProblem(_ body: ServedRequest.RegisterUser) -> String? {
        guard isEmail(body.email) else { return "Invalid email address." }
        guard body.password.count >= minimumPasswordLength else {
            return "The password must have at least \(minimumPasswordLength) characters."
        }
        for name in [body.firstName, body.lastName].compactMap({ $0 }) where name.count > 128 || name.contains(where: \.isNewline) {
            return "Names must be at most 128 characters on one line."
        }
        if let msisdn = body.msisdn, !isPhoneNumber(msisdn) { return "Invalid phone number." }
        guard ServedLanguage(rawValue: body.language) != nil else { return "Unknown language '\(body.language.prefix(8))'." }
        return nil
    }

    /// Whether `text` (spaces and dashes ignored) is an E.164 number (`+` and 8 to 15 digits, not
    /// starting with 0) or a Greek national number (10 digits starting with `69` for mobiles or `2`
    /// for landlines, optionally after `0030` or `30`).
    static func isPhoneNumber(_ text: String) -> Bool {
        var digits = text.filter { $0 != " " && $0 != "-" }
        if digits.hasPrefix("+") {
            digits.removeFirst()
            return (8...15).contains(digits.count) && digits.allSatisfy { $0.isASCII && $0.isNumber } && !digits.hasPrefix("0")
        }
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
        if digits.hasPrefix("0030") { digits.removeFirst(4) } else if digits.count == 12, digits.hasPrefix("30") { digits.removeFirst(2) }
        return digits.count == 10 && (digits.hasPrefix("69") || digits.hasPrefix("2"))
    }
}
