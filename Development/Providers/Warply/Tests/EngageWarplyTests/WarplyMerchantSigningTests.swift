@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageWarply
import Crypto
import EngageTestTraits
import Foundation
import Testing
import WarplyEmulator

/// The default signing, the official iOS SDK's (SwiftWarplyFramework 2.3.0 knowledge file §6:
/// "loyalty-web-id — merchant ID from Configuration", "{api_key} → Empty string (legacy, deprecated)",
/// "loyalty-signature — SHA256 hash of "{apiKey}{timestamp}""): no device registration request, every
/// signed request carries the merchant id and the digest of its date alone.
@Suite("Warply merchant signing (the official SDK's)", .bounded)
struct WarplyMerchantSigningTests {
    static func sha256Hex(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    @Test("by default nothing is registered: every signed request carries the merchant id and the date's own digest")
    func signsWithTheMerchantID() async throws {
        let harness = try await WarplyHarness(emulatorConfiguration: .init(merchantIDs: ["dei-merchant-1"]))
        #expect(WarplyConfiguration(appUUID: WarplyHarness.appUUID).signing == .merchant)
        let (engage, warply) = try await harness.loggedIn(harness.warplyConfiguration { $0.merchantID = "dei-merchant-1" })
        try await warply.initialize()
        _ = try await warply.campaigns()
        _ = try await warply.profile()
        #expect(harness.requests(to: WarplyPaths.register).isEmpty)
        #expect(harness.emulator.registrationCount == 0)
        let signed = harness.requests(to: WarplyPaths.standardContext) + harness.requests(to: WarplyPaths.authenticatedContext)
        #expect(signed.count >= 3)
        for entry in signed {
            let date = try #require(entry.header("loyalty-date"))
            #expect(entry.header("loyalty-web-id") == "dei-merchant-1")
            #expect(entry.header("loyalty-signature") == Self.sha256Hex(date))
        }
        #expect(harness.emulator.signatureFailureCount == 0)
        // Nothing registration-like is kept on the device.
        #expect(try await warply.isLoggedIn())
        await engage.shutdown()
        await harness.stop()
    }

    @Test("status 9 fails the call at once with what to check: there is no key to renew and nothing is registered")
    func statusNineIsAnError() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider()
        harness.emulator.setAnswersStatus9Always(true)
        let error = await #expect(throws: EngageError.self) { try await warply.couponSets() }
        #expect(error?.code == .warplyRegistrationInvalid)
        #expect(error?.message.contains("signature") == true)
        #expect(error?.recoverySuggestion?.contains("merchantID") == true)
        #expect(harness.requests(to: WarplyPaths.standardContext).count == 1)
        #expect(harness.requests(to: WarplyPaths.register).isEmpty)
        await engage.shutdown()
        await harness.stop()
    }

    @Test("a merchant id the backend does not know is refused, not signed some other way")
    func unknownMerchant() async throws {
        let harness = try await WarplyHarness()
        let (engage, warply) = try await harness.startProvider(harness.warplyConfiguration { $0.merchantID = "not-ours" })
        let error = await #expect(throws: EngageError.self) { try await warply.couponSets() }
        #expect(error?.code == .warplyRegistrationInvalid)
        #expect(harness.requests(to: WarplyPaths.standardContext).map { $0.header("loyalty-web-id") } == ["not-ours"])
        await engage.shutdown()
        await harness.stop()
    }

    @Test("JSON chooses the signing; it is written back; an unknown scheme is refused")
    func signingInJSON() throws {
        let decoder = JSONDecoder()
        let registration = try decoder.decode(
            WarplyConfiguration.self, from: Data(#"{"appUUID":"\#(WarplyHarness.appUUID)","signing":"deviceRegistration"}"#.utf8))
        #expect(registration.signing == .deviceRegistration)
        let merchant = try decoder.decode(WarplyConfiguration.self, from: Data(#"{"appUUID":"\#(WarplyHarness.appUUID)"}"#.utf8))
        #expect(merchant.signing == .merchant)
        #expect(try decoder.decode(WarplyConfiguration.self, from: JSONEncoder().encode(registration)).signing == .deviceRegistration)
        #expect(throws: DecodingError.self) {
            try decoder.decode(WarplyConfiguration.self, from: Data(#"{"appUUID":"\#(WarplyHarness.appUUID)","signing":"apiKey"}"#.utf8))
        }
    }
}
