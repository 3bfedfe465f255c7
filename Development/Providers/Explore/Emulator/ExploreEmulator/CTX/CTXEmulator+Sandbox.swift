@_spi(EngageProvider) import EngageSandbox
import Foundation
import Hummingbird
@_spi(EngageProvider) import EngageCore

extension CTXEmulator {
    /// Two routes of the emulator only, under `_sandbox/` (CTX has no such routes): what a developer or
    /// CI needs to drive a real-service client, such as `explore-example --ctx-url`, against the
    /// sandbox without reading its memory.
    ///
    /// | route | behaviour |
    /// |---|---|
    /// | `GET _sandbox/inbox?email=` | `{"code": …}`: the outstanding login code of that e-mail, as read from its inbox; none: 404 |
    /// | `GET _sandbox/merchants` | `[{id, name, enabled, denominationsType, denominations}]`: the catalogue, denominations as decimal strings |
    func addSandboxRoutes(to group: RouterGroup<SandboxRequestContext>) {
        group.get("_sandbox/inbox") { request, _ in
            let email = request.uri.queryParameters["email"].map(String.init) ?? ""
            guard let code = self.loginCode(for: email) else {
                return GiftCardEmulatorRoutes.jsonResponse(["error": "No login code for that e-mail"], status: .notFound)
            }
            return GiftCardEmulatorRoutes.jsonResponse(["code": code])
        }
        group.get("_sandbox/merchants") { _, _ in
            let merchants = self.state.withLock { state in
                state.merchants.values.map(\.merchant).sorted { $0.name < $1.name }
            }
            return GiftCardEmulatorRoutes.jsonResponse(
                merchants.map { record -> [String: Any] in
                    [
                        "id": record.id, "name": record.name, "enabled": record.isEnabled,
                        "denominationsType": record.denominationsType.rawValue,
                        "denominations": record.denominationValues.map(GiftCardEmulatorMoney.plain),
                    ]
                })
        }
    }
}
