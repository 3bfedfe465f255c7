import Engage
import EngageSandbox
import EngageTesting
import Foundation
import Logging

/// The core scenario: the reference provider through the facade, end to end over HTTP.
struct ReferenceScenario {
    let baseURL: URL
    /// The embedded sandbox, when the scenario runs against it (to show what the backend received).
    let sandbox: SandboxHost?
    let logLevel: Logger.Level

    func run(into report: inout DemoReport) async throws {
        var configuration = EngageConfiguration.preset(.development, appID: "org.engagekit.demo")
        configuration.storage = .inMemory
        configuration.logLevel = logLevel
        try configuration.setProvider("reference", ReferenceProvider.Configuration(baseURL: baseURL))
        let registration = try ProviderRegistration.provider(ReferenceProvider.self, from: configuration)
        let callbackQueue = DispatchQueue(label: "engage-demo.callbacks")
        var logger = Logger(label: "engage-demo")
        logger.logLevel = logLevel
        let engage = try await Engage.start(
            configuration: configuration, providers: [registration],
            environment: RegistryEnvironment(secretStore: InMemorySecretStore(), callbackQueue: .queue(callbackQueue), logger: logger)
        )
        let operations = Locked<[String]>([])
        let subscription = engage.events.subscribe(to: OperationEvent.self) { event in
            operations.withLock { $0.append(event.name) }
        }
        defer { subscription.cancel() }

        report.section("Start") {
            $0.line("Started: \(engage.startReport.started.map(\.rawValue).joined(separator: ", "))")
            for (id, error) in engage.startReport.failures { $0.line("Failed: \(id): \(error.message)") }
        }

        let login = try await engage.logIn(UserIdentity(userID: "maria", email: "maria@example.gr", attributes: ["reference.password": "secret"]))
        let offers = try await engage.offers()
        report.section("Reference backend: log in and offers") {
            $0.line("Log in: \(login.isComplete ? "ok" : "failed: \(login.failures.values.map(\.message))")")
            $0.line("Offers: \(offers.items.count) from \(offers.report.succeeded.map(\.rawValue).joined(separator: ", "))")
            for offer in offers.items.prefix(3) {
                $0.line("  • \(offer.title.value()) — \(offer.value.map { "\($0)" } ?? "no price")")
            }
            for (id, error) in offers.report.failures { $0.line("  ✗ \(id): \(error.message)") }
        }

        let callbackCount = await withCheckedContinuation { continuation in
            engage.offers(OfferQuery()) { result in continuation.resume(returning: (try? result.get().items.count) ?? -1) }
        }
        report.section("Callback form") { $0.line("offers(completion:) delivered \(callbackCount) offers on the callback queue") }

        for name in ["screen_view", "add_to_cart", "purchase"] {
            _ = try await engage.track(TrackedEvent(.custom, name: name))
        }
        let pending = try await engage.registry.analytics.pendingCount()
        let flush = await engage.registry.analytics.flush()
        report.section("Durable analytics queue") {
            $0.line("Queued \(pending) event(s); flush delivered \(flush.delivered), \(flush.remaining) remaining")
            if let sandbox {
                let received = sandbox.journal.entries(matching: "/events").count
                $0.line("Backend received \(received) batch request(s)")
            }
        }

        _ = try await engage.logOut()
        await withCheckedContinuation { continuation in callbackQueue.async { continuation.resume() } }
        report.section("Operation events published") {
            for name in operations.value { $0.line(name) }
        }
        await engage.shutdown()
    }
}
