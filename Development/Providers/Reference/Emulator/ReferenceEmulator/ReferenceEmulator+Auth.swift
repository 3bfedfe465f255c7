@_spi(EngageProvider) import EngageSandbox
import Foundation
import HTTPTypes
import Hummingbird
@_spi(EngageProvider) import EngageCore

extension ReferenceEmulator {
    func addAuthRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
        group.post("auth/token") { request, context in
            guard let body = try await self.decodeBody(TokenRequest.self, from: request, context: context) else {
                return self.invalidRequest("Expected {\"username\", \"password\"}.")
            }
            guard body.password == self.configuration.password else {
                return SandboxResponse.error(.unauthorized, code: "invalid_grant", description: "Wrong username or password.")
            }
            let refreshToken = self.store.withLock { store in
                store.loginCount += 1
                return store.makeRefreshToken(for: body.username)
            }
            return try self.tokenResponse(subject: body.username, refreshToken: refreshToken, environment: environment)
        }

        group.post("auth/refresh") { request, context in
            guard let body = try await self.decodeBody(RefreshRequest.self, from: request, context: context) else {
                return self.invalidRequest("Expected {\"refresh_token\"}.")
            }
            let now = environment.now()
            let reuse = self.configuration.refreshTokenReuseInterval.map { TimeInterval($0.components.seconds) }
            let rotated = self.store.withLock { store -> (subject: String, token: String)? in
                if let subject = store.refreshTokens.removeValue(forKey: body.refresh_token) {
                    if reuse != nil { store.spentRefreshTokens[body.refresh_token] = (subject, now) }
                    store.refreshCount += 1
                    return (subject, store.makeRefreshToken(for: subject))
                }
                // Within the reuse interval, a token just used refreshes once more.
                guard let reuse, let spent = store.spentRefreshTokens[body.refresh_token], now.timeIntervalSince(spent.spentAt) <= reuse
                else {
                    return nil
                }
                store.refreshCount += 1
                return (spent.subject, store.makeRefreshToken(for: spent.subject))
            }
            guard let rotated else {
                return SandboxResponse.error(
                    .badRequest, code: "invalid_grant", description: "The refresh token is unknown or was already used."
                )
            }
            return try self.tokenResponse(subject: rotated.subject, refreshToken: rotated.token, environment: environment)
        }
    }

    private func tokenResponse(subject: String, refreshToken: String, environment: EmulatorEnvironment) throws -> Response {
        let lifetime = environment.jwt.effectiveLifetime(configuration.accessTokenLifetime ?? environment.jwt.defaultLifetime)
        let accessToken = environment.jwt.issue(subject: subject, lifetime: lifetime)
        return try SandboxResponse.json(
            TokenResponse(access_token: accessToken, refresh_token: refreshToken, expires_in: lifetime.components.seconds),
            headers: [.cacheControl: "no-store"]
        )
    }

    /// Checks `Authorization: Bearer <jwt>`; returns the 401 to send when it is missing or invalid.
    func rejectUnauthorized(_ request: Request, environment: EmulatorEnvironment) -> Response? {
        guard let authorization = request.headers[.authorization], authorization.hasPrefix("Bearer ") else {
            return SandboxResponse.error(
                .unauthorized, code: "invalid_token", description: "A bearer token is required.",
                headers: [.wwwAuthenticate: "Bearer"]
            )
        }
        do {
            _ = try environment.jwt.verify(String(authorization.dropFirst("Bearer ".count)))
            return nil
        } catch {
            let reason = error == .expired ? "The access token expired." : "The access token is invalid."
            return SandboxResponse.error(
                .unauthorized, code: "invalid_token", description: reason,
                headers: [.wwwAuthenticate: #"Bearer error="invalid_token", error_description="\#(reason)""#]
            )
        }
    }
}
