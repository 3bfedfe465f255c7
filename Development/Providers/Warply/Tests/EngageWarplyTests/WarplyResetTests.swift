@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageWarply
import Foundation
import EngageTestTraits
import Testing
import WarplyEmulator

@Suite("Warply reset", .bounded)
struct WarplyResetTests {
    @Test("reset logs out, forgets the registration and starts over with a new persisted device id that every request sends")
    func resetRenewsTheDevice() async throws {
        let harness = try await WarplyHarness(signing: .deviceRegistration)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("warply-reset-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let secrets = InMemorySecretStore()
        let generated = harness.warplyConfiguration { $0.deviceID = nil }
        let (engage, warply) = try await harness.startProvider(generated, storage: .directory(directory.path), secretStore: secrets)
        try await warply.logIn(deiEmail: "maria@example.gr")
        let first = warply.deviceID
        _ = try await warply.campaigns()
        #expect(harness.requests(to: WarplyPaths.standardContext).last?.header("unique-device-id") == first)
        let registrations = harness.emulator.registrationCount

        _ = try await engage.reset()
        let second = warply.deviceID
        #expect(second != first)
        #expect(try await warply.tokens.currentTokens() == nil)
        _ = try await warply.campaigns()
        // The new device registers anew, and every client (unsigned and signed) sends its id.
        #expect(harness.emulator.registrationCount == registrations + 1)
        #expect(harness.requests(to: WarplyPaths.register).last?.header("unique-device-id") == second)
        #expect(harness.requests(to: WarplyPaths.standardContext).last?.header("unique-device-id") == second)
        await engage.shutdown()
        try? engage.registry.database.close()

        // The new id is the one stored: a restart keeps it.
        let (restarted, again) = try await harness.startProvider(generated, storage: .directory(directory.path), secretStore: secrets)
        #expect(again.deviceID == second)
        await restarted.shutdown()
        await harness.stop()
    }

    @Test("a configured device id survives reset")
    func configuredDeviceIDStays() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.loggedIn()
        try await warply.reset()
        #expect(warply.deviceID == "device-under-test")
        #expect(try await warply.tokens.currentTokens() == nil)
        _ = try await warply.campaigns()
        #expect(harness.requests(to: WarplyPaths.standardContext).last?.header("unique-device-id") == "device-under-test")
        await engage.shutdown()
        await harness.stop()
    }
}
