@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Hummingbird

extension WarplyEmulator {
    func addSessionRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
        group.get("api/session/:sessionUuid") { request, context in
            try await self.respond {
                try self.verifySigned(request, environment: environment)
                let sessionUUID = context.parameters.get("sessionUuid") ?? ""
                let query = request.uri.queryParameters
                let language = ServedLanguage(requested: query["language"].map(String.init) ?? query["lan"].map(String.init))
                guard let campaign = try self.catalogue().campaign(sessionUUID: sessionUUID, language: language) else {
                    return SandboxResponse.raw(try ServedAnswer.status(0, message: "Unknown session."))
                }
                return SandboxResponse.raw(try ServedAnswer.result(message: "Success", campaign))
            }
        }
    }
}
