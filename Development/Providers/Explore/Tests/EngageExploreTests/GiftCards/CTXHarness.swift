@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageExploreCTX
@_spi(EngageProvider) @testable import EngageExploreGiftCards
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
import ExploreEmulator
import Foundation
import Testing

/// A sandbox serving the CTX emulator on 127.0.0.1 and a `CTXClient` pointed at it. Both read one
/// `FakeClock`, so advancing it expires tokens and moves cards along on both sides.
struct CTXHarness {
    static let clientID = "engagekit-tests"
    let clock = FakeClock()
    let emulator: CTXEmulator
    let host: SandboxHost
    let baseURL: URL
    let test: GiftCardTestContext
    let client: CTXClient

    let gate = TestGate()

    init(
        merchants: [CTXEmulatorMerchant]? = nil, configuration: CTXEmulator.Configuration = .init(clientID: CTXHarness.clientID),
        timeoutSeconds: Double = 30
    ) async throws {
        emulator = CTXEmulator(merchants: merchants, configuration: configuration)
        let clock = clock
        let gate = gate
        // `.delay` faults wait at the gate instead of sleeping.
        host = SandboxHost(
            emulators: [emulator], configuration: SandboxConfiguration(now: { clock.now }, sleep: { _ in await gate.pass() }))
        baseURL = try #require(try await host.start().baseURL(for: "ctx"))
        test = try GiftCardTestContext(clock: clock, timeoutSeconds: timeoutSeconds)
        client = try CTXClient(configuration: CTXConfiguration(baseURL: baseURL, clientID: Self.clientID), context: test.context)
    }

    /// Requests a code, reads it from the emulator's "inbox" and verifies it.
    func signIn(email: String = "ana@example.com") async throws {
        try await client.requestCode(email: email)
        let code = try #require(emulator.loginCode(for: email))
        try await client.verify(email: email, code: code)
    }

    /// The default catalogue's merchant at `index`, as the emulator holds it.
    func merchant(_ index: Int) -> CTXEmulatorMerchant.Record { emulator.merchants[index].merchant }

    /// The merchant at `index` as the client would read it from the emulator.
    func clientMerchant(_ index: Int) -> CTXMerchant { Self.clientMerchant(of: merchant(index)) }

    /// What the client should read for the emulator's `record`, field by field.
    static func clientMerchant(of record: CTXEmulatorMerchant.Record) -> CTXMerchant {
        CTXMerchant(
            id: record.id, name: record.name, logoURL: record.logoURL, isEnabled: record.isEnabled,
            savingsBasisPoints: record.savingsBasisPoints,
            denominationsType: ExploreDenominationsType(directoryValue: record.denominationsType.rawValue),
            denominationValues: record.denominationValues, locationCount: record.locationCount
        )
    }

    /// The secrets of the emulator's card, as the client should read them.
    static func secrets(of card: CTXEmulatorGiftCard) -> GiftCardSecrets {
        GiftCardSecrets(
            number: card.number, pin: card.pin, barcodeURL: card.barcodeURL, redeemURL: card.redeemURL,
            redeemURLChallenge: card.redeemURLChallenge)
    }

    /// Requests to the emulator-relative `path`.
    func requests(to path: String) -> [JournalEntry] {
        host.journal.entries(for: "ctx").filter { $0.path == path }
    }

    func stop() async { await host.stop() }
}
