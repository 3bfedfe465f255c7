// The sandbox UI: serve emulators with the web UI beside them, and show an emulator's state in it.

// snippet.hide
@_spi(EngageProvider) import EngageCore
import EngageSandbox
import EngageSandboxUI
import Foundation
import Hummingbird

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
// snippet.show

// snippet.inspectable
/// A small backend that records the deals clients claim, and shows them in the sandbox UI.
final class DealsEmulator: InspectableEmulator {
    let id = "deals"
    private let claims = Locked<[String]>([])

    func addRoutes(to group: RouterGroup<SandboxRequestContext>, environment: EmulatorEnvironment) {
        group.post("claims/:deal") { _, context in
            let deal = context.parameters.get("deal") ?? ""
            self.claims.withLock { $0.append(deal) }
            return Response(status: .created)
        }
    }

    func inspect() -> EmulatorStateView {
        EmulatorStateView(tables: [
            .init(title: "Claims", columns: ["deal"], rows: claims.value.reversed().map { [$0] })
        ])
    }

    func reset() {
        claims.withLock { $0.removeAll() }
    }
}
// snippet.end

// snippet.serve
let host = SandboxHost(emulators: [DealsEmulator()], extensions: [SandboxUI()])
let endpoints = try await host.start()
guard let ui = SandboxUI.url(for: endpoints) else { fatalError("the host is running") }
print("ui", ui.absoluteString)  // open it in a browser on this machine
// snippet.end

// A claim reaches the emulator; the UI's JSON API shows it in the emulator's state.
guard let deals = endpoints.baseURL(for: "deals") else { fatalError("the host serves deals") }
var claim = URLRequest(url: deals.appendingPathComponent("claims/deal-7"))
claim.httpMethod = "POST"
_ = try await URLSession.shared.data(for: claim)
let (state, _) = try await URLSession.shared.data(from: ui.appendingPathComponent("api/state/deals"))
print(String(decoding: state, as: UTF8.self))  // {"tables":[{"columns":["deal"],"rows":[["deal-7"]],"title":"Claims"}]}

// snippet.hide
await host.stop()
