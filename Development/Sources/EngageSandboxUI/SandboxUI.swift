@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import EngageSandbox
import Foundation
import Hummingbird

/// The sandbox's web UI: a live list of every request to every emulator, fault rules added and
/// removed by hand, each emulator's state with a reset, and the lifetime of the next tokens. It is
/// served by the sandbox's own host under ``path``, from static files in this module (no build step,
/// no framework, JavaScript modules only), and answers loopback clients only.
///
/// ```swift
/// let host = SandboxHost(emulators: [DealsEmulator()], extensions: [SandboxUI()])
/// let endpoints = try await host.start()
/// guard let ui = SandboxUI.url(for: endpoints) else { fatalError("the host is running") }
/// print("ui", ui.absoluteString)  // open it in a browser on this machine
/// ```
///
/// Its JSON API (under `/_sandbox/api/`, described in docs/sandbox.md) is what the page uses, and
/// what a UI test or a script can drive.
public struct SandboxUI: SandboxExtension {
    /// Where the UI is served: `/_sandbox/` (no emulator id starts with `_`).
    public static let path = "/_sandbox/"

    private let assets: SandboxUIAssets
    private let redactor: Redactor

    /// The UI with its bundled pages. Request details are redacted with the SDK's log rules plus the
    /// emulated backends' own secret headers, unless the person asks to reveal them.
    public init() {
        assets = SandboxUIAssets.bundled
        redactor = Redactor(maxBodyExcerpt: 512 * 1024).adding(
            headers: ["unique-device-id", "loyalty-web-id", "x-hasura-user-id"],
            keys: ["clientid", "deviceid", "code", "giftcardcode", "number"]
        )
    }

    /// The UI's address on a running host (`http://127.0.0.1:<port>/_sandbox/`).
    public static func url(for endpoints: SandboxEndpoints) -> URL? {
        endpoints.rootURL?.appendingPathComponent("_sandbox/")
    }

    /// Adds the page, its assets and the JSON API, behind the loopback and same-origin guard.
    public func addRoutes(to router: Router<SandboxRequestContext>, host: SandboxHost) {
        let group = router.group("_sandbox").add(middleware: SandboxUIGuard())
        SandboxUIPages(assets: assets).addRoutes(to: group)
        SandboxUIAPI(host: host, redactor: redactor).addRoutes(to: group.group("api"))
    }
}
