@_spi(EngageProvider) import EngageSandbox
import Foundation
import HTTPTypes
import Hummingbird
@_spi(EngageProvider) import EngageCore

extension WarplyEmulator {
    /// The email domain of users logged in through the Cosmote partner routes.
    public static let cosmoteEmailDomain = "cosmote.emulator"

    func addLoginRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
        // The DEI e-mail login, and the un-scoped `oauth/login` of older public clients, answered alike.
        for path in ["partners/dei/app_login", "oauth/login"] {
            group.post(RouterPath(path)) { request, context in
                try await self.respond {
                    let data = try await self.readBody(request, context: context)
                    try self.verifySigned(request, environment: environment)
                    let body = try self.decode(ServedRequest.DEILogin.self, from: data, expected: #"{"email":"…"}"#)
                    guard Self.isEmail(body.email) else { return try Self.loginRefused("Invalid email address.") }
                    return try self.login(email: body.email, environment: environment)
                }
            }
        }
        group.post("partners/cosmote/verify") { request, context in
            try await self.respond {
                let data = try await self.readBody(request, context: context)
                try self.verifySigned(request, environment: environment)
                let body = try self.decode(
                    ServedRequest.VerifyTicket.self, from: data, expected: #"{"guid":"…","app_uuid":"…","ticket":"…"}"#
                )
                guard let email = Self.cosmoteEmail(guid: body.guid), self.configuration.cosmoteTickets.contains(body.ticket) else {
                    return try Self.loginRefused("Invalid ticket.")
                }
                return try self.login(email: email, environment: environment)
            }
        }
        group.post("partners/oauth/:appUUID/token") { request, context in
            try await self.respond {
                let data = try await self.readBody(request, context: context)
                try self.verifySigned(request, environment: environment)
                guard Self.basicCredentials(of: request) == self.configuration.partnerCredentials else {
                    throw WarplyEmulatorRejection.invalidClient
                }
                let body = try self.decode(ServedRequest.CosmoteUser.self, from: data, expected: #"{"user_identifier":"…"}"#)
                guard let email = Self.cosmoteEmail(guid: body.userIdentifier) else {
                    return try Self.loginRefused("Invalid user identifier.")
                }
                return try self.login(email: email, environment: environment)
            }
        }
    }

    /// Logs `email` in and answers its tokens in the result form.
    func login(email: String, environment: EmulatorEnvironment) throws -> Response {
        let answer = state.withLock { $0.login(email: email, configuration: configuration, environment: environment) }
        environment.logger.debug("Warply user logged in")
        return SandboxResponse.raw(try ServedAnswer.result(message: "Success", answer), headers: [.cacheControl: "no-store"])
    }

    /// The result-form refusal of a login: `{"status":0,"msg":…}`.
    static func loginRefused(_ message: String) throws -> Response {
        SandboxResponse.raw(try ServedAnswer.status(0, message: message))
    }

    /// `<guid>@cosmote.emulator` (lowercased), or `nil` for a GUID that is empty, too long or not one token.
    static func cosmoteEmail(guid: String) -> String? {
        let trimmed = guid.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= 128, !trimmed.contains(where: { $0.isWhitespace || $0 == "@" }) else { return nil }
        return "\(trimmed.lowercased())@\(cosmoteEmailDomain)"
    }

    /// Whether `text` looks like an email address: one `@`, a non-empty local part, a dotted domain and
    /// no whitespace.
    static func isEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard text.count <= 254, parts.count == 2, !parts[0].isEmpty, !text.contains(where: \.isWhitespace) else { return false }
        let domain = parts[1]
        return domain.contains(".") && !domain.hasPrefix(".") && !domain.hasSuffix(".") && !domain.contains("..")
    }

    /// The credentials of `Authorization: Basic …`, if well formed.
    static func basicCredentials(of request: Request) -> PartnerCredentials? {
        guard let authorization = request.headers[.authorization], authorization.hasPrefix("Basic "),
            let decoded = Data(base64Encoded: String(authorization.dropFirst("Basic ".count)).trimmingCharacters(in: .whitespaces)),
            let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else {
            return nil
        }
        return PartnerCredentials(username: String(text[..<colon]), password: String(text[text.index(after: colon)...]))
    }
}
