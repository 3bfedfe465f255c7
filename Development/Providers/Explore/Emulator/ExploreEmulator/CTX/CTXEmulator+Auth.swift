@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import Hummingbird

/// The request bodies of CTX's sign-in routes, as the Dash wallet's client sends them
/// (`LoginRequest`, `VerifyEmailRequest`, `RefreshTokenRequest` in `CTXSpendModels.swift`): the
/// emulator's own types.
private struct CTXEmailBody: Decodable { var email: String }
private struct CTXVerifyBody: Decodable {
    var email: String
    var code: String
}
private struct CTXRefreshBody: Decodable { var refreshToken: String }

extension CTXEmulator {
    static let accessKind = "ctx-access"
    static let refreshKind = "ctx-refresh"

    func addAuthRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
        group.post("login") { request, context in
            try await GiftCardEmulatorRoutes.respond {
                try self.checkClient(request)
                let body = try await GiftCardEmulatorRoutes.decode(
                    CTXEmailBody.self, from: request, context: context, invalid: .ctx(.badRequest, "Expected {\"email\"}.")
                )
                let email = body.email.lowercased()
                guard email.contains("@") else {
                    throw GiftCardEmulatorRejection.ctx(.badRequest, "Invalid email", fields: ["email": ["invalid"]])
                }
                self.state.withLock { state in
                    let code = state.generator.nextDigits(6)
                    state.loginCodes[email] = (code, environment.now())
                }
                return Response(status: .noContent)
            }
        }
        group.post("verify-email") { request, context in
            try await GiftCardEmulatorRoutes.respond {
                try self.checkClient(request)
                let body = try await GiftCardEmulatorRoutes.decode(
                    CTXVerifyBody.self, from: request, context: context,
                    invalid: .ctx(.badRequest, "Expected {\"email\", \"code\"}.")
                )
                let email = body.email.lowercased()
                let now = environment.now()
                let accepted = self.state.withLock { state -> Bool in
                    guard let pending = state.loginCodes[email], pending.code == body.code,
                        now < pending.issuedAt.adding(self.configuration.loginCodeLifetime)
                    else { return false }
                    state.loginCodes[email] = nil
                    state.users.insert(email)
                    state.loginCount += 1
                    return true
                }
                guard accepted else {
                    throw GiftCardEmulatorRejection.ctx(.badRequest, "Invalid or expired code", fields: ["code": ["invalid"]])
                }
                return try self.tokenAnswer(for: email, environment: environment)
            }
        }
        group.post("refresh-token") { request, context in
            try await GiftCardEmulatorRoutes.respond {
                try self.checkClient(request)
                let body = try await GiftCardEmulatorRoutes.decode(
                    CTXRefreshBody.self, from: request, context: context, invalid: .ctx(.badRequest, "Expected {\"refreshToken\"}.")
                )
                let valid =
                    (try? environment.jwt.verify(body.refreshToken))?.extraClaims[GiftCardEmulatorRoutes.tokenKindClaim] == Self.refreshKind
                let email =
                    valid
                    ? self.state.withLock { state -> String? in
                        guard let email = state.refreshTokens.removeValue(forKey: body.refreshToken) else { return nil }
                        state.refreshCount += 1
                        return email
                    } : nil
                guard let email else { throw GiftCardEmulatorRejection.ctx(.unauthorized, "Invalid refresh token") }
                return try self.tokenAnswer(for: email, environment: environment)
            }
        }
    }

    /// A fresh pair for `email`; the refresh token is remembered as unused.
    private func tokenAnswer(for email: String, environment: EmulatorEnvironment) throws -> Response {
        let access = environment.jwt.issue(
            subject: email, lifetime: configuration.accessTokenLifetime,
            extraClaims: [GiftCardEmulatorRoutes.tokenKindClaim: Self.accessKind]
        )
        let refresh = environment.jwt.issue(
            subject: email, lifetime: configuration.refreshTokenLifetime,
            extraClaims: [GiftCardEmulatorRoutes.tokenKindClaim: Self.refreshKind],
            isRefreshToken: true
        )
        state.withLock { $0.refreshTokens[refresh] = email }
        // `{accessToken, refreshToken}`: `VerifyEmailResponse`/`RefreshTokenResponse` of the official client.
        return GiftCardEmulatorRoutes.jsonResponse(["accessToken": access, "refreshToken": refresh], headers: [.cacheControl: "no-store"])
    }

    /// The user of the request's bearer access token, or a 401.
    func authenticatedUser(_ request: Request, environment: EmulatorEnvironment) throws -> String {
        guard let claims = GiftCardEmulatorRoutes.bearerClaims(request, environment: environment, kind: Self.accessKind) else {
            throw GiftCardEmulatorRejection.ctx(.unauthorized, "Unauthorized")
        }
        return claims.subject
    }
}
