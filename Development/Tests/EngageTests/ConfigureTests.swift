@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) import EngageReference
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import Logging
import ReferenceEmulator
import EngageTestTraits
import Testing

/// `Engage(configuration:)` / `Engage.configure`: returns at once, operations wait for readiness,
/// events tracked before it are stored durably and handed over.
@Suite("Configure, then call before the providers are ready", .bounded)
struct ConfigureTests {
    @Test("An operation called before readiness waits for it and succeeds; ready() and engage_ready report the start")
    func callBeforeReady() async throws {
        let name = ScriptProbe.uniqueName("configure")
        let probe = ScriptProbe.named(name)
        let configuration = testConfiguration()
        let engage = try Engage(
            configuration: configuration,
            providers: [
                .provider(AlphaProvider.self, configuration: ScriptedConfiguration(offers: ["a1", "a2"], probe: name, waitAtGate: true))
            ],
            environment: testEnvironment()
        )
        let readyEvents = Locked<[String]>([])
        let subscription = engage.events.subscribe(named: "engage_ready") { event in
            readyEvents.withLock { $0.append((event as? NamedEvent)?.attributes["started"] ?? "?") }
        }
        #expect(!engage.isReady)
        async let offers = engage.offers()
        // Generous: the whole suite runs in parallel on two cores; it only elapses when start is broken.
        #expect(await waitUntil { probe.startEntered.count == 1 }, "the provider is starting, held at its gate")
        #expect(!engage.isReady)
        probe.startGate.open()
        #expect(try await offers.items.map(\.id) == ["a1", "a2"])
        #expect(engage.isReady)
        #expect(await engage.waitUntilReady().started == ["alpha"])
        #expect(await waitUntil { readyEvents.value == ["alpha"] })
        subscription.cancel()
        await engage.shutdown()
    }

    @Test("Readiness is awaited for at most the request timeout: then a retryable .timeout")
    func readinessIsBounded() async throws {
        let name = ScriptProbe.uniqueName("bounded")
        let probe = ScriptProbe.named(name)
        var configuration = testConfiguration()
        configuration.network.timeoutSeconds = 0.2
        let engage = try Engage(
            configuration: configuration,
            providers: [.provider(AlphaProvider.self, configuration: ScriptedConfiguration(offers: ["a"], probe: name, waitAtGate: true))],
            environment: testEnvironment()
        )
        let error = await #expect(throws: EngageError.self) { try await engage.offers() }
        #expect(error?.code == .timeout)
        #expect(error?.isRetryable == true)
        probe.startGate.open()
        _ = await engage.waitUntilReady()
        #expect(try await engage.offers().items.map(\.id) == ["a"])
        await engage.shutdown()
    }

    /// An instance with the Reference provider (which tracks events, against `sandbox`) and `AlphaProvider`,
    /// returned once Alpha's start is held at its probe's gate: the instance is not ready until the test
    /// opens `probe.startGate`.
    private static func startHeldAtAlpha(
        _ sandbox: SandboxFixture, probeName: String, timeoutSeconds: Double? = nil
    ) async throws -> (Engage, ScriptProbe) {
        let name = ScriptProbe.uniqueName(probeName)
        let probe = ScriptProbe.named(name)
        var configuration = try sandbox.configuration()
        if let timeoutSeconds { configuration.network.timeoutSeconds = timeoutSeconds }
        let engage = try Engage(
            configuration: configuration,
            providers: [
                try ProviderRegistration.provider(ReferenceProvider.self, from: configuration),
                .provider(AlphaProvider.self, configuration: ScriptedConfiguration(probe: name, waitAtGate: true)),
            ],
            environment: RegistryEnvironment(secretStore: InMemorySecretStore())
        )
        #expect(await waitUntil { probe.startEntered.count == 1 })
        return (engage, probe)
    }

    @Test("Events tracked before readiness are on disk at once and reach the backend once the providers are ready")
    func trackBeforeReady() async throws {
        let sandbox = try await SandboxFixture()
        let (engage, probe) = try await Self.startHeldAtAlpha(sandbox, probeName: "staged")
        for index in 0..<3 {
            let report = try await engage.track(TrackedEvent(.custom, name: "early_\(index)"))
            #expect(report.succeeded.isEmpty && report.failures.isEmpty)
        }
        #expect(try await engage.registry.analytics.pendingCount(destination: "engage.staged-events") == 3)
        probe.startGate.open()
        _ = await engage.waitUntilReady()
        // The staged events were handed to the provider: now they wait in its own destination.
        #expect(
            await waitUntil {
                (try? await engage.registry.analytics.pendingCount(destination: "engage.staged-events")) == 0
            })
        await engage.flush()
        let names = sandbox.emulator.receivedEvents.map(\.name)
        #expect(names == ["early_0", "early_1", "early_2"])
        await engage.shutdown()
        await sandbox.stop()
    }

    @Test("A flush that runs while the providers are still starting keeps the staged events for them")
    func flushBeforeReadyKeepsStagedEvents() async throws {
        let sandbox = try await SandboxFixture()
        let (engage, probe) = try await Self.startHeldAtAlpha(sandbox, probeName: "early-flush", timeoutSeconds: 0.2)
        for index in 0..<3 {
            _ = try await engage.track(TrackedEvent(.custom, name: "early_\(index)"))
        }
        // A provider's own scheduled flush, or a background flush, runs before readiness: longer than
        // the readiness wait of an operation (0.2 s here), so an operation would time out.
        await engage.registry.analytics.flush()
        #expect(try await engage.registry.analytics.pendingCount(destination: "engage.staged-events") == 3)
        probe.startGate.open()
        _ = await engage.waitUntilReady()
        #expect(
            await waitUntil {
                (try? await engage.registry.analytics.pendingCount(destination: "engage.staged-events")) == 0
            })
        await engage.flush()
        #expect(sandbox.emulator.receivedEvents.map(\.name) == ["early_0", "early_1", "early_2"])
        await engage.shutdown()
        await sandbox.stop()
    }

    @Test("Staged events a fan-out cannot take stay queued, behind the ones delivered before them")
    func stagedDeliveryFailureKeepsTheRest() async throws {
        let name = ScriptProbe.uniqueName("staged-unsupported")
        let probe = ScriptProbe.named(name)
        // The only tracking provider fails to start: the fan-out throws `.unsupported` for every event.
        let engage = try Engage(
            configuration: testConfiguration(),
            providers: [
                .provider(AlphaProvider.self, configuration: ScriptedConfiguration(failStart: true, probe: name, waitAtGate: true))
            ],
            environment: testEnvironment()
        )
        #expect(await waitUntil { probe.startEntered.count == 1 })
        for index in 0..<2 {
            _ = try await engage.track(TrackedEvent(.custom, name: "kept_\(index)"))
        }
        probe.startGate.open()
        _ = await engage.waitUntilReady()
        await engage.registry.analytics.flush(destination: "engage.staged-events")
        #expect(try await engage.registry.analytics.pendingCount(destination: "engage.staged-events") == 2)
        await engage.shutdown()
    }

    @Test("Staged events are dropped when no provider here tracks events at all")
    func stagedEventsWithoutAnyTrackerAreDropped() async throws {
        let name = ScriptProbe.uniqueName("staged-no-tracker")
        let probe = ScriptProbe.named(name)
        let engage = try Engage(
            configuration: testConfiguration(),
            providers: [.provider(AlphaProvider.self, configuration: ScriptedConfiguration(probe: name, waitAtGate: true))],
            environment: testEnvironment()
        )
        #expect(await waitUntil { probe.startEntered.count == 1 })
        _ = try await engage.track(TrackedEvent(.custom, name: "nowhere"))
        probe.startGate.open()
        _ = await engage.waitUntilReady()
        #expect(
            await waitUntil {
                (try? await engage.registry.analytics.pendingCount(destination: "engage.staged-events")) == 0
            })
        await engage.shutdown()
    }

    @Test("Two third-party providers with one id are refused at once")
    func duplicateIDsThrow() {
        let alpha = ProviderRegistration.provider(AlphaProvider.self, configuration: ScriptedConfiguration())
        #expect(throws: EngageError.self) {
            _ = try Engage(configuration: testConfiguration(), providers: [alpha, alpha], environment: testEnvironment())
        }
    }
}
