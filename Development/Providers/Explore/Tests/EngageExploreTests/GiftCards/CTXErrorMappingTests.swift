@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageExploreCTX
@_spi(EngageProvider) @testable import EngageExploreGiftCards
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
import ExploreEmulator
import Foundation
import EngageTestTraits
import Testing

extension GiftCardSuites {
    @Suite("CTX error mapping (end to end)", .bounded)
    struct CTXErrorMappingTests {
        @Test("400 from the server on a purchase is an invalid amount carrying the field message")
        func badRequestAmount() async throws {
            let harness = try await CTXHarness(configuration: .init(purchaseThreshold: 100, clientID: CTXHarness.clientID))
            try await harness.signIn()
            let error = await engageError {
                _ = try await harness.client.purchaseGiftCard(merchantID: harness.merchant(6).id, fiatAmount: 500)
            }
            #expect(error?.code == .exploreGiftCardAmountInvalid)
            #expect(error?.httpStatus == 400)
            #expect(error?.message.contains("fiatAmount: above threshold") == true)
            let server = try #require(error?.underlyingError as? CTXServerError)
            #expect(server.fields["fiatAmount"] == ["above threshold"])
            #expect(server.messages == ["Invalid amount"])
            await harness.stop()
        }

        @Test("409 is .exploreGiftCardRejected; a disabled merchant is refused before sending")
        func conflictIsRejected() async throws {
            let harness = try await CTXHarness()
            try await harness.signIn()
            let disabled = harness.clientMerchant(7)
            let local = await engageError { _ = try await harness.client.purchaseGiftCard(merchant: disabled, fiatAmount: 20) }
            #expect(local?.code == .exploreGiftCardRejected)
            #expect(harness.requests(to: "/gift-cards").isEmpty)
            // An out-of-date copy that still says enabled: the server answers 409.
            var stale = disabled
            stale.isEnabled = true
            let remote = await engageError { _ = try await harness.client.purchaseGiftCard(merchant: stale, fiatAmount: 20) }
            #expect(remote?.code == .exploreGiftCardRejected)
            #expect(remote?.httpStatus == 409)
            #expect(remote?.message.contains("Merchant is not available") == true)
            await harness.stop()
        }

        @Test("422 is an invalid amount (a stale copy of the denominations let it through)")
        func unprocessableIsInvalidAmount() async throws {
            let harness = try await CTXHarness()
            try await harness.signIn()
            var stale = harness.clientMerchant(1)  // fixed 25, 50, 100 on the server
            stale.denominationValues = [25, 30]
            let error = await engageError { _ = try await harness.client.purchaseGiftCard(merchant: stale, fiatAmount: 30) }
            #expect(error?.code == .exploreGiftCardAmountInvalid)
            #expect(error?.httpStatus == 422)
            #expect(error?.message.contains("not an accepted denomination") == true)
            await harness.stop()
        }

        @Test("5xx is a retryable .exploreGiftCardServer with the server's message; 401 without a session is .unauthorized")
        func serverErrors() async throws {
            let harness = try await CTXHarness()
            try await harness.signIn()
            harness.host.faults.inject(
                FaultRule(
                    .status(
                        502, body: Data(#"{"errors":[{"message":"Upstream down"}]}"#.utf8), headers: ["Content-Type": "application/json"]),
                    emulatorID: "ctx", method: "POST", path: "/gift-cards", trigger: .times(1)
                ))
            let error = await engageError {
                _ = try await harness.client.purchaseGiftCard(merchantID: harness.merchant(0).id, fiatAmount: 20)
            }
            #expect(error?.code == .exploreGiftCardServer)
            #expect(error?.isRetryable == true)
            #expect(error?.httpStatus == 502)
            #expect(error?.message.contains("Upstream down") == true)
            #expect(harness.requests(to: "/gift-cards").count == 1)  // a purchase is never resent

            // 425 and 408 are retryable, as everywhere in EngageKit (EngageError.isRetryable(httpStatus:)).
            for status in [425, 408] {
                harness.host.faults.inject(
                    FaultRule(.status(status), emulatorID: "ctx", method: "POST", path: "/gift-cards", trigger: .times(1)))
                let early = await engageError {
                    _ = try await harness.client.purchaseGiftCard(merchantID: harness.merchant(0).id, fiatAmount: 20)
                }
                #expect(early?.httpStatus == status)
                #expect(early?.isRetryable == true)
            }
            #expect(harness.requests(to: "/gift-cards").count == 3)

            try await harness.client.signOut()
            let unauthorized = await engageError {
                _ = try await harness.client.purchaseGiftCard(merchantID: harness.merchant(0).id, fiatAmount: 20)
            }
            #expect(unauthorized?.code == .unauthorized)
            #expect(harness.requests(to: "/gift-cards").count == 3)
            await harness.stop()
        }
    }
}
