@_spi(EngageProvider) import EngageSandbox
import HTTPTypes
import Hummingbird
@_spi(EngageProvider) import EngageCore

extension WarplyEmulator {
    func addTokenRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
        // The scoped route, and the un-scoped one older public clients use.
        for path in ["oauth/:appUUID/token", "oauth/token"] {
            addRefreshRoute(RouterPath(path), to: group, environment: environment)
        }
        group.post("oauth/:appUUID/logout") { request, context in
            try await self.respond {
                let data = try await self.readBody(request, context: context)
                try self.verifySigned(request, environment: environment)
                let body = try self.decode(ServedRequest.Logout.self, from: data, expected: #"{"access_token","refresh_token"}"#)
                self.state.withLock { $0.logout(accessToken: body.accessToken, refreshToken: body.refreshToken, environment: environment) }
                return try Self.statusAnswer(1)
            }
        }
    }

    private func addRefreshRoute(_ path: RouterPath, to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
        group.post(path) { request, context in
            try await self.respond {
                let data = try await self.readBody(request, context: context)
                try self.verifySigned(request, environment: environment)
                let body = try self.decode(
                    ServedRequest.Refresh.self, from: data,
                    expected: #"{"grant_type":"refresh_token","refresh_token","client_id","client_secret"}"#
                )
                guard body.grantType == "refresh_token" else {
                    throw WarplyEmulatorRejection(status: .badRequest, body: ["error": "unsupported_grant_type"])
                }
                let answer = self.state.withLock { state in
                    state.refresh(
                        body.refreshToken, clientID: body.clientID, clientSecret: body.clientSecret,
                        configuration: self.configuration, environment: environment
                    )
                }
                guard let answer else {
                    environment.logger.debug("Refused a Warply refresh token")
                    throw WarplyEmulatorRejection.invalidGrant
                }
                return try SandboxResponse.json(answer, headers: [.cacheControl: "no-store"])
            }
        }
    }
}
