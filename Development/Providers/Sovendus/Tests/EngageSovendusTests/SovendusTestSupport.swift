import Crypto
@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageSovendus
import EngageEmulators
import Foundation
import SovendusEmulator
import Testing

/// A started sandbox serving a Sovendus emulator, and a registry with the Sovendus provider pointed at it.
struct SovendusHarness {
    let host: SandboxHost
    let emulator: SovendusEmulator
    let registry: ProviderRegistry
    let sovendus: SovendusProvider
    let base: URL
    let clock: FakeClock

    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    static func make(
        transport: (any HTTPTransport)? = nil, configure: (inout SovendusConfiguration) -> Void = { _ in }
    ) async throws -> SovendusHarness {
        let clock = FakeClock(now: now)
        let emulator = SovendusEmulator()
        let host = SandboxHost(emulators: [emulator], configuration: SandboxConfiguration(now: { clock.now }))
        let base = try #require(try await host.start().baseURL(for: "sovendus"))
        var configuration = EngageConfiguration.preset(.testing, appID: "org.engagekit.sovendus-tests")
        configuration.storage = .inMemory
        configuration.network.timeoutSeconds = 20  // generous: the suite runs hundreds of tests at once
        // Retries on, so that the tests show which answers are (not) sent again.
        configuration.network.maxAttempts = 3
        var sovendusConfiguration = emulator.providerConfiguration(baseURL: base)
        configure(&sovendusConfiguration)
        try configuration.setProvider(.sovendus, sovendusConfiguration)
        let registry = try ProviderRegistry(
            configuration: configuration, environment: RegistryEnvironment(transport: transport, clock: clock))
        try await registry.register(.provider(SovendusProvider.self, from: configuration))
        let report = await registry.start()
        if let failure = report.failures[.sovendus] { throw failure }
        return SovendusHarness(
            host: host, emulator: emulator, registry: registry, sovendus: try await registry.provider(SovendusProvider.self), base: base,
            clock: clock
        )
    }

    func requests(path suffix: String) -> [JournalEntry] {
        host.journal.entries(for: "sovendus").filter { $0.path.hasSuffix(suffix) }
    }

    func stop() async {
        await registry.shutdown()
        await host.stop()
    }
}

enum SovendusFixtures {
    static let order = SovendusOrder(
        id: "Order-123", netValue: Decimal(string: "120.50") ?? 0, currency: "EUR", couponCode: "WELCOME10", sessionID: "s-1",
        placedAt: Date(timeIntervalSince1970: 1_790_000_000)
    )

    static func consumer() throws -> SovendusConsumer {
        SovendusConsumer(
            salutation: .mr, firstName: "John", lastName: "Smith", email: "  Example@Example.com ", phone: "+4915546456456",
            yearOfBirth: 1990,
            dateOfBirth: try SovendusConsumer.BirthDate(year: 1990, month: 12, day: 1), street: "Main Street", streetNumber: "12/1",
            zipCode: "76135", city: "Karlsruhe", country: "DE", language: "de"
        )
    }

    /// A page builder for the emulator-like configuration at `base`.
    static func builder(base: URL = URL(string: "http://127.0.0.1:8080/sovendus")!, csp: Bool = true) -> SovendusPageBuilder {
        var builder = SovendusPageBuilder(
            configuration: SovendusEmulator().providerConfiguration(baseURL: base), integrationVersion: "1.0.0")
        builder.includesContentSecurityPolicy = csp
        return builder
    }
}

enum SovendusTestCrypto {
    static func sha256Base64(_ text: String) -> String {
        Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString()
    }
}
