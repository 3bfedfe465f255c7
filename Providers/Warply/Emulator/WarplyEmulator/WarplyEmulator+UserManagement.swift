@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) import EngageWarply
import Hummingbird
@_spi(EngageProvider) import EngageCore

extension WarplyEmulator {
    /// The shortest new password `change_password` accepts.
    public static let minimumPasswordLength = 8

    func addUserManagementRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
        group.post("user/:appUUID/change_password") { request, context in
            try await self.respond {
                let data = try await self.readBody(request, context: context)
                try self.verifySigned(request, environment: environment)
                _ = try self.authenticate(request, environment: environment)
                let body = try self.decode(WarplyAuthRequest.ChangePassword.self, from: data, expected: #"{"old_password","new_password"}"#)
                guard !body.oldPassword.isEmpty else { return try Self.statusAnswer(0, message: "The old password is required.") }
                guard body.oldPassword != body.newPassword else {
                    return try Self.statusAnswer(0, message: "The new password must differ from the old one.")
                }
                guard body.newPassword.count >= Self.minimumPasswordLength else {
                    return try Self.statusAnswer(
                        0, message: "The new password must have at least \(Self.minimumPasswordLength) characters.")
                }
                return try Self.statusAnswer(WarplyWire.Status.success)
            }
        }
        group.post("user/:appUUID/password_reset") { request, context in
            try await self.respond {
                let data = try await self.readBody(request, context: context)
                try self.verifySigned(request, environment: environment)
                let body = try self.decode(WarplyAuthRequest.ResetPassword.self, from: data, expected: #"{"email":"…"}"#)
                guard Self.isEmail(body.email) else { return try Self.statusAnswer(0, message: "Invalid email address.") }
                self.state.withLock { $0.passwordResetRequests.append(body.email) }
                return try Self.statusAnswer(WarplyWire.Status.success)
            }
        }
        group.post("user/:appUUID/otp/generate") { request, context in
            try await self.respond {
                let data = try await self.readBody(request, context: context)
                try self.verifySigned(request, environment: environment)
                let body = try self.decode(WarplyAuthRequest.RequestOTP.self, from: data, expected: #"{"msisdn":"…"}"#)
                guard Self.isPhoneNumber(body.msisdn) else { return try Self.statusAnswer(0, message: "Invalid phone number.") }
                self.state.withLock { $0.otpRequests.append(body.msisdn) }
                return try Self.statusAnswer(WarplyWire.Status.success)
            }
        }
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
