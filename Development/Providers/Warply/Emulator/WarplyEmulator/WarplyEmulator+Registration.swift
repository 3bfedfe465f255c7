@_spi(EngageProvider) import EngageSandbox
import Hummingbird
@_spi(EngageProvider) import EngageCore

extension WarplyEmulator {
    func addRegistrationRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
        group.get("api/mobile/v2/:appUUID/register") { _, context in
            try await self.respond {
                let appUUID = context.parameters.get("appUUID") ?? ""
                guard self.configuration.accepts(appUUID: appUUID) else {
                    throw WarplyEmulatorRejection.refused("Unknown application UUID.")
                }
                let registration = self.state.withLock { $0.register(environment: environment) }
                environment.logger.debug("Registered a Warply device")
                return SandboxResponse.raw(try ServedAnswer.registration(registration))
            }
        }
    }
}
