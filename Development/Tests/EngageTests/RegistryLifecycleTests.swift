@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import HTTPTypes
import EngageTestTraits
import Testing

@Suite("ProviderRegistry lifecycle", .bounded)
struct RegistryLifecycleTests {
    func temporaryDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("engage-registry-\(UUID().uuidString)").path
    }

    @Test("start is single flight: a call during start waits and gets the same report")
    func startSingleFlight() async throws {
        let probe = ScriptProbe.uniqueName("single-flight")
        let registry = try ProviderRegistry(configuration: testConfiguration(), environment: testEnvironment())
        try await registry.register(.provider(AlphaProvider.self, configuration: ScriptedConfiguration(probe: probe, waitAtGate: true)))
        let first = Task { await registry.start() }
        await eventually { ScriptProbe.named(probe).startEntered.count == 1 }
        let second = Task { await registry.start() }
        await eventually { await registry.startCallCount == 2 }
        ScriptProbe.named(probe).startGate.open()
        let firstReport = await first.value
        let secondReport = await second.value
        #expect(firstReport.started == ["alpha"])
        #expect(secondReport.started == ["alpha"])
        #expect(secondReport.failures.isEmpty)
        #expect(await registry.start().started == ["alpha"])
        #expect(ScriptProbe.named(probe).startEntered.count == 1)
        await registry.shutdown()
    }

    @Test("shutdown during start waits for it, then shuts everything down; nothing is resurrected")
    func shutdownDuringStart() async throws {
        let probe = ScriptProbe.uniqueName("shutdown-during-start")
        let registry = try ProviderRegistry(configuration: testConfiguration(), environment: testEnvironment())
        try await registry.register(
            .provider(
                AlphaProvider.self, configuration: ScriptedConfiguration(probe: probe, waitAtGate: true, registersDeliverer: true)
            ))
        let starting = Task { await registry.start() }
        await eventually { ScriptProbe.named(probe).startEntered.count == 1 }
        let stopping = Task { await registry.shutdown() }
        await eventually { await registry.isShuttingDown }
        ScriptProbe.named(probe).startGate.open()
        let report = await starting.value
        await stopping.value
        #expect(report.started == ["alpha"])
        #expect(ScriptProbe.named(probe).shutdowns.count == 1)
        #expect(await !registry.analytics.isAutomaticFlushRunning)
        #expect(await registry.analytics.isStopped)
        #expect(await registry.providers.isEmpty)
        let error = await #expect(throws: EngageError.self) { try await registry.provider(AlphaProvider.self) }
        #expect(error?.code == .providerNotFound)
        // Later calls change nothing.
        #expect(await registry.start().started == ["alpha"])
        await registry.shutdown()
        #expect(ScriptProbe.named(probe).shutdowns.count == 1)
    }

    @Test("shutdown flushes the analytics queue once, before the providers shut down")
    func shutdownFlushesFirst() async throws {
        let probe = ScriptProbe.uniqueName("flush-first")
        let registry = try ProviderRegistry(configuration: testConfiguration(), environment: testEnvironment())
        try await registry.register(
            .provider(
                AlphaProvider.self, configuration: ScriptedConfiguration(probe: probe, registersDeliverer: true)
            ))
        await registry.start()
        for name in ["e1", "e2", "e3"] {
            _ = try await registry.analytics.enqueue(Data(name.utf8), destination: "alpha.events")
        }
        await registry.shutdown()
        let deliveries = ScriptProbe.named(probe).deliveries.value
        #expect(deliveries.map(\.payload) == ["e1", "e2", "e3"])
        #expect(deliveries.allSatisfy { !$0.afterShutdown })
        #expect(ScriptProbe.named(probe).shutdowns.count == 1)
        #expect(try await registry.analytics.pendingCount() == 0)
        // The queue stays stopped: nothing is sent any more.
        _ = try await registry.analytics.enqueue(Data("late".utf8), destination: "alpha.events")
        #expect(await registry.analytics.flush().delivered == 0)
        await registry.shutdown()
        #expect(ScriptProbe.named(probe).deliveries.value.count == 3)
    }

    @Test("start after shutdown starts nothing and reports every provider")
    func startAfterShutdown() async throws {
        let registry = try ProviderRegistry(configuration: testConfiguration(), environment: testEnvironment())
        try await registry.register(.provider(AlphaProvider.self, configuration: ScriptedConfiguration()))
        await registry.shutdown()
        let report = await registry.start()
        #expect(report.started.isEmpty)
        #expect(!report.isComplete)
        #expect(report.failures["alpha"]?.code == .providerStartFailed)
    }

    @Test("two live registries cannot share a database file, however it is spelled")
    func oneRegistryPerDatabaseFile() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var configuration = testConfiguration()
        configuration.storage = .directory(directory)
        let first = try ProviderRegistry(configuration: configuration, environment: testEnvironment())
        let path = try #require(first.database.path)

        let error = #expect(throws: EngageError.self) {
            try ProviderRegistry(configuration: configuration, environment: testEnvironment())
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.lowercased().contains("another registry already uses") == true)
        #expect(error?.message.contains("engage.sqlite") == true)

        let parent = (directory as NSString).deletingLastPathComponent
        let name = (directory as NSString).lastPathComponent
        var respelled = configuration
        respelled.storage = .directory("\(directory)/../\(name)/.")
        #expect(throws: EngageError.self) { try ProviderRegistry(configuration: respelled, environment: testEnvironment()) }
        let link = "\(parent)/\(name)-link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: directory)
        defer { try? FileManager.default.removeItem(atPath: link) }
        var linked = configuration
        linked.storage = .directory(link)
        #expect(throws: EngageError.self) { try ProviderRegistry(configuration: linked, environment: testEnvironment()) }

        // Shutdown releases the file.
        await first.shutdown()
        #expect(!DatabaseFileClaim.isClaimed(path))
        let second = try ProviderRegistry(configuration: configuration, environment: testEnvironment())
        await second.shutdown()
    }

    @Test("a registry released without shutdown releases its database file")
    func releasedOnDeinit() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var configuration = testConfiguration()
        configuration.storage = .directory(directory)
        var path: String?
        do {
            let registry = try ProviderRegistry(configuration: configuration, environment: testEnvironment())
            path = registry.database.path
            #expect(path.map(DatabaseFileClaim.isClaimed) == true)
        }
        #expect(path.map(DatabaseFileClaim.isClaimed) == false)
        _ = try ProviderRegistry(configuration: configuration, environment: testEnvironment())
    }

    @Test("one provider's invalid configuration fails that provider only; unknown sections are reported, not ignored")
    func invalidSectionFailsOneProvider() async throws {
        var configuration = testConfiguration()
        configuration.providers["crobx"] = ["containerID": "typo"]
        configuration.providers["zeta"] = [:]
        #if Crobox
            configuration.providers["crobox"] = ["containerID": 42]
        #endif
        let engage = try await Engage.start(
            configuration: configuration,
            providers: [
                .provider(AlphaProvider.self, configuration: ScriptedConfiguration()),
                .provider(BetaProvider.self, configuration: ScriptedConfiguration(startDelayMilliseconds: -1)),
            ],
            environment: testEnvironment()
        )
        #expect(await engage.waitUntilReady().started == ["alpha"])
        let beta = try #require(await engage.waitUntilReady().failures["beta"])
        #expect(beta.code == .invalidConfiguration)
        #expect(beta.message.contains("startDelayMilliseconds"))
        #if Crobox
            #expect(await engage.waitUntilReady().failures["crobox"]?.code == .invalidConfiguration)
            #expect(await engage.waitUntilReady().failures["crobox"]?.message.contains("containerID") == true)
        #endif
        #expect(await engage.waitUntilReady().unusedSections == ["crobx", "zeta"])
        await #expect {
            try await engage.provider(BetaProvider.self)
        } throws: { error in
            let error = error as? EngageError
            return error?.code == .providerStartFailed && error?.message.contains("startDelayMilliseconds") == true
        }
        _ = try await engage.provider(AlphaProvider.self)
        await engage.shutdown()
    }

    @Test("a failed registration in Engage.start shuts the registry down and frees its database")
    func failedStartReleasesDatabase() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var configuration = testConfiguration()
        configuration.storage = .directory(directory)
        let error = await #expect(throws: EngageError.self) {
            try await Engage.start(
                configuration: configuration,
                providers: [
                    .provider(AlphaProvider.self, configuration: ScriptedConfiguration()),
                    .provider(AlphaProvider.self, configuration: ScriptedConfiguration()),
                ],
                environment: testEnvironment()
            )
        }
        #expect(error?.code == .duplicateProvider)
        #expect(!DatabaseFileClaim.isClaimed(directory + "/" + EngageDatabase.defaultFileName))
        let engage = try await Engage.start(
            configuration: configuration, providers: [.provider(AlphaProvider.self, configuration: ScriptedConfiguration())],
            environment: testEnvironment()
        )
        #expect(await engage.waitUntilReady().started == ["alpha"])
        await engage.shutdown()
    }

    @Test(
        "Engage.start is the initialiser's start: a provider it cannot register is a failure in the report, the others run, and it returns announced"
    )
    func startIsTheOneStartPath() async throws {
        let environment = testEnvironment()
        let engage = try await Engage.start(
            configuration: testConfiguration(),
            // The refused provider first: the ones after it are still registered.
            providers: [
                .provider(MisnamedProvider.self, configuration: EmptyConfiguration()),
                .provider(AlphaProvider.self, configuration: ScriptedConfiguration()),
            ],
            environment: environment
        )
        let report = await engage.waitUntilReady()
        #expect(report.started == ["alpha"])
        #expect(report.failures["Not A Valid Id"]?.code == .invalidConfiguration)
        // Returned announced: the state says ready and names the failure, like an app's instance once ready.
        #expect(engage.isReady)
        #expect(engage.currentState.isReady)
        #expect(engage.currentState.failedProviders.keys.contains("Not A Valid Id"))
        await engage.shutdown()
    }

    @Test("a provider's API client gets the configured response size limit")
    func responseLimitFromConfiguration() async throws {
        var configuration = testConfiguration()
        configuration.network.maxResponseBytes = 2048
        let transport = InMemoryTransport { _ in .body(Data(repeating: UInt8(ascii: "a"), count: 4096)) }
        let registry = try ProviderRegistry(configuration: configuration, environment: testEnvironment(transport: transport))
        try await registry.register(.provider(AlphaProvider.self, configuration: ScriptedConfiguration()))
        await registry.start()
        let alpha = try await registry.provider(AlphaProvider.self)
        let client = try alpha.behavior.context.makeAPIClient(baseURL: try #require(URL(string: "https://api.example.com")))
        #expect(client.maxResponseBytes == 2048)
        let error = await #expect(throws: EngageError.self) { try await client.data(.get, "/big") }
        #expect(error?.code == .responseTooLarge)
        #expect(error?.message.contains("over the limit of 2048") == true)
        await registry.shutdown()
    }
}

@Suite("Engage.shared and Engage.configure", .bounded)
struct SharedInstanceTests {
    @Test("before configure, Engage.shared is a stand-in that refuses every operation; after it, the configured instance, read without try")
    func sharedAfterConfigure() async throws {
        // Only this test touches Engage.shared.
        #expect(!Engage.isConfigured)
        let standIn = Engage.shared
        #expect(!standIn.isReady)
        #expect(!standIn.isAnalyticsEnabled())
        let offers = await #expect(throws: EngageError.self) { try await standIn.offers() }
        #expect(offers?.code == .notConfigured)
        #expect(offers?.message.contains("offers") == true)
        #expect(offers?.recoverySuggestion?.contains("Engage.configure(with:)") == true)
        let tracked = await #expect(throws: EngageError.self) { try await standIn.track(TrackedEvent(.custom, name: "early")) }
        #expect(tracked?.code == .notConfigured)
        let consent = await #expect(throws: EngageError.self) { try await standIn.setAnalyticsEnabled(false) }
        #expect(consent?.code == .notConfigured)
        #expect(await standIn.waitUntilReady().failures["engage"]?.code == .notConfigured)
        #expect(!standIn.handle(try #require(URL(string: "exampleapp://content/1"))))
        #expect(throws: EngageError.self, "no throwaway anonymous id before configure") { try standIn.anonymousID }
        let viaCallback = await withCheckedContinuation { continuation in
            standIn.logIn(UserIdentity(userID: "u-1")) { continuation.resume(returning: $0) }
        }
        #expect(throws: EngageError.self) { try viaCallback.get() }

        let probe = ScriptProbe.uniqueName("configure-shared")
        let providers: [ProviderRegistration] = [
            .provider(AlphaProvider.self, configuration: ScriptedConfiguration(offers: ["a1"], probe: probe))
        ]
        let engage = try Engage.configure(with: testConfiguration(), providers: providers, environment: testEnvironment())
        let again = #expect(throws: EngageError.self) {
            try Engage.configure(with: testConfiguration(), providers: providers, environment: testEnvironment())
        }
        #expect(again?.code == .alreadyConfigured)
        #expect(Engage.isConfigured)
        #expect(Engage.shared === engage)
        #expect(try await Engage.shared.offers().items.map(\.id) == ["a1"])
        // The stand-in read earlier still refuses: it never becomes the configured instance.
        await #expect(throws: EngageError.self) { try await standIn.offers() }
        await engage.shutdown()
    }
}
