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

/// The device's clock is two hours off from the server's, end to end against the Reference emulator
/// (its tokens carry `iat` and `exp` on the server's clock): two hours of calls every five minutes with
/// one-hour tokens make one refresh per token lifetime, and every call is accepted.
@Suite("Scenarios: a wrong device clock", .bounded)
struct ClockSkewScenarioTests {
    @Test("at most one refresh per token lifetime, every call accepted", arguments: [7_200.0, -7_200.0])
    func oneRefreshPerLifetime(deviceAheadBy offset: TimeInterval) async throws {
        let device = OffsetClock()
        device.advance(by: .seconds(offset))
        let emulator = ReferenceEmulator(configuration: .init(password: referencePassword))
        let host = SandboxHost(
            emulators: [emulator],
            configuration: SandboxConfiguration(now: { device.now.addingTimeInterval(-offset) }, tokenLifetime: .seconds(3600))
        )
        let baseURL = try #require(try await host.start().baseURL(for: "reference"))
        var configuration = EngageConfiguration.preset(.testing, appID: "org.engagekit.clock")
        configuration.network.timeoutSeconds = 20
        configuration.analytics.flushIntervalSeconds = 3600
        try configuration.setProvider("reference", ReferenceProvider.Configuration(baseURL: baseURL))
        let engage = try await Engage.start(
            configuration: configuration, providers: [try ProviderRegistration.provider(ReferenceProvider.self, from: configuration)],
            environment: RegistryEnvironment(clock: device, random: SeededRandomSource(seed: 3), logger: Logger(label: "clock"))
        )
        _ = try await engage.logIn(referenceUser)
        let provider = try await engage.provider(ReferenceProvider.self)
        for _ in 0..<24 {
            #expect(try await provider.items().count > 0)
            device.advance(by: .seconds(300))
        }
        // Two hours of one-hour tokens: a refresh shortly before each expires, and no 401 ever.
        #expect(emulator.refreshCount == 2)
        #expect(host.journal.entries(for: "reference").filter { $0.status == 401 }.isEmpty)
        await engage.shutdown()
        await host.stop()
    }
}
