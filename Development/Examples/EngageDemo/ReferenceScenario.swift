@_spi(EngageProvider) import EngageCore
@_spi(EngageProvider) import Engage
@_spi(EngageProvider) import EngageReference
import EngageSandbox
@_spi(EngageProvider) import EngageTesting
import Foundation

/// The core scenario: the reference provider through the facade, end to end over HTTP.
struct ReferenceScenario: DemoScenario {
    static let emulatorID = "reference"

    let engage: Engage
    /// The embedded sandbox, when the scenario runs against it (to show what the backend received).
    let sandbox: SandboxHost?

    static func configure(_ configuration: inout EngageConfiguration, setup: DemoSetup) throws {
        try configuration.setProvider("reference", ReferenceProvider.Configuration(baseURL: setup.baseURL(for: emulatorID)))
    }

    func run(into report: inout DemoReport) async throws {
        let reference = try await engage.provider(ReferenceProvider.self)
        try await reference.logIn(UserIdentity(userID: "maria", email: "maria@example.gr", attributes: ["reference.password": "secret"]))
        let items = try await reference.items()
        let callbackCount = await withCheckedContinuation { continuation in
            reference.items { result in continuation.resume(returning: (try? result.get().count) ?? -1) }
        }
        for name in ["screen_view", "add_to_cart", "purchase"] {
            try await reference.track(TrackedEvent(.custom, name: name))
        }
        let pending = try await engage.registry.analytics.pendingCount(destination: ReferenceProvider.analyticsDestination)
        let flush = await engage.registry.analytics.flush(destination: ReferenceProvider.analyticsDestination)
        try await reference.logOut()
        report.section("Reference backend (core scenario)") {
            $0.line("Logged in; \(items.count) items over an authorised GET (callback form: \(callbackCount))")
            for item in items.prefix(3) { $0.line("  • \(item.name) — \(item.price) EUR") }
            $0.line("Queued \(pending) analytics event(s); flush delivered \(flush.delivered), \(flush.remaining) remaining")
            if let sandbox {
                $0.line(
                    "Backend received \(sandbox.journal.entries(for: "reference").filter { $0.path == "/events" }.count) event batch request(s)"
                )
            }
            $0.line("Logged out")
        }
    }
}
