@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageSovendus
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
@testable import SovendusEmulator
import EngageTestTraits
import Testing

@Suite("Sovendus coupon redemption and telemetry against the emulator", .bounded)
struct SovendusRedemptionTests {
    @Test("A redemption sends Sovendus' six fields: the e-mail only as its hash, the value as 120.50")
    func redeems() async throws {
        let harness = try await SovendusHarness.make()
        let consumer = try SovendusFixtures.consumer()
        let receipt = try await harness.sovendus.redeemCoupon(for: SovendusFixtures.order, consumer: consumer)
        #expect(receipt.message == "Coupon redemption received.")
        #expect(
            harness.emulator.redemptions == [
                SovendusReceivedRedemption(
                    trafficSourceNumber: "1234", emailHash: "23463b99b62a72f26ed677cc556c44e8",
                    trafficMediumPublicID: SovendusEmulator.seededTrafficMediumPublicID.uuidString.lowercased(), orderValue: "120.50",
                    orderCurrency: "EUR", orderID: "Order-123", couponCode: "WELCOME10"
                )
            ])
        let entry = try #require(harness.requests(path: "/redeem/1234").first)
        #expect(entry.method == "POST")
        let body = String(decoding: entry.body, as: UTF8.self)
        #expect(!body.lowercased().contains("example@example.com"))
        let object = try #require(try JSONSerialization.jsonObject(with: entry.body) as? [String: Any])
        #expect(Set(object.keys) == ["email_hash", "traffic_medium_public_id", "order_value", "order_currency", "order_id", "coupon_code"])
        #expect(object.values.allSatisfy { $0 is String })
        await harness.stop()
    }

    @Test("Sovendus' 404, 422 and 500 become clear errors; none is resent")
    func statusesMapToErrors() async throws {
        let harness = try await SovendusHarness.make()
        let consumer = try SovendusFixtures.consumer()
        for (status, code) in [
            (404, EngageError.Code.sovendusInvalidTrafficSource), (422, .sovendusRedemptionRejected), (500, .sovendusRedemptionFailed),
        ] {
            harness.host.faults.inject(
                FaultRule(
                    .status(status, body: Data(#"{"error":"x"}"#.utf8)), emulatorID: "sovendus", path: "/redeem/1234", trigger: .times(1)))
            let before = harness.requests(path: "/redeem/1234").count
            do {
                _ = try await harness.sovendus.redeemCoupon(for: SovendusFixtures.order, consumer: consumer)
                Issue.record("HTTP \(status) was accepted")
            } catch {
                #expect(error.code == code)
                #expect(error.httpStatus == status)
                #expect(error.providerID == .sovendus)
                #expect(error.recoverySuggestion != nil)
                #expect(!error.isRetryable)
            }
            #expect(harness.requests(path: "/redeem/1234").count == before + 1, "HTTP \(status) was resent")
        }
        #expect(harness.emulator.redemptions.isEmpty)
        await harness.stop()
    }

    @Test("An unknown traffic medium id is the emulator's real 500, sent once")
    func unknownMediumID() async throws {
        let harness = try await SovendusHarness.make { $0.trafficMediumPublicID = UUID(uuidString: "11111111-2222-4333-8444-555555555555") }
        await #expect {
            _ = try await harness.sovendus.redeemCoupon(for: SovendusFixtures.order, consumer: try SovendusFixtures.consumer())
        } throws: { ($0 as? EngageError)?.code == .sovendusRedemptionFailed }
        #expect(harness.requests(path: "/redeem/1234").count == 1)
        await harness.stop()
    }

    @Test("Even a 503 is not resent by the SDK: one request, a retryable error for the app to decide on")
    func serviceUnavailableIsNotResent() async throws {
        let harness = try await SovendusHarness.make()
        harness.host.faults.inject(
            FaultRule(.serviceUnavailable(retryAfter: 0), emulatorID: "sovendus", path: "/redeem/1234", trigger: .times(1)))
        let consumer = try SovendusFixtures.consumer()
        do {
            _ = try await harness.sovendus.redeemCoupon(for: SovendusFixtures.order, consumer: consumer)
            Issue.record("a 503 was accepted")
        } catch {
            #expect(error.httpStatus == 503)
            #expect(error.isRetryable)
        }
        #expect(harness.requests(path: "/redeem/1234").count == 1)
        // The app decides to try again: it goes through.
        let receipt = try await harness.sovendus.redeemCoupon(for: SovendusFixtures.order, consumer: try SovendusFixtures.consumer())
        #expect(receipt.message == "Coupon redemption received.")
        await harness.stop()
    }

    @Test("Any 2xx is a receipt, whatever its body: a success is never reported as a failure")
    func successWithUnexpectedBody() async throws {
        let harness = try await SovendusHarness.make()
        for body in ["", "{}", "not json", #"{"message": 5}"#] {
            harness.host.faults.inject(
                FaultRule(.status(200, body: Data(body.utf8)), emulatorID: "sovendus", path: "/redeem/1234", trigger: .times(1)))
            let receipt = try await harness.sovendus.redeemCoupon(for: SovendusFixtures.order, consumer: try SovendusFixtures.consumer())
            #expect(receipt.message == nil)
        }
        await harness.sovendus.telemetry.drain()
        #expect(harness.emulator.errorReports.isEmpty)
        await harness.stop()
    }

    @Test("A connection lost after Sovendus handled the redemption is not resent: one redemption recorded")
    func lostAnswerIsNotResent() async throws {
        let harness = try await SovendusHarness.make()
        harness.host.faults.inject(
            FaultRule(.dropConnectionAfterHandling, emulatorID: "sovendus", path: "/redeem/1234", trigger: .times(1)))
        await #expect(throws: EngageError.self) {
            _ = try await harness.sovendus.redeemCoupon(for: SovendusFixtures.order, consumer: try SovendusFixtures.consumer())
        }
        #expect(harness.emulator.redemptions.count == 1)
        await harness.stop()
    }

    @Test("Nothing is sent without a coupon code, an e-mail address or the medium id, or for an invalid order")
    func localValidation() async throws {
        let harness = try await SovendusHarness.make()
        let consumer = try SovendusFixtures.consumer()
        var noCoupon = SovendusFixtures.order
        noCoupon.couponCode = nil
        var negative = SovendusFixtures.order
        negative.netValue = -1
        let cases: [(SovendusOrder, SovendusConsumer, String)] = [
            (noCoupon, consumer, "coupon code"), (SovendusFixtures.order, SovendusConsumer(firstName: "Eva"), "e-mail"),
            (SovendusFixtures.order, SovendusConsumer(email: "   "), "e-mail"), (negative, consumer, "negative"),
        ]
        for (order, consumer, named) in cases {
            await #expect {
                _ = try await harness.sovendus.redeemCoupon(for: order, consumer: consumer)
            } throws: { error in
                guard let error = error as? EngageError else { return false }
                return error.code == .invalidInput && error.message.contains(named)
            }
        }
        await harness.stop()

        let unconfigured = try await SovendusHarness.make { $0.trafficMediumPublicID = nil }
        await #expect {
            _ = try await unconfigured.sovendus.redeemCoupon(for: SovendusFixtures.order, consumer: consumer)
        } throws: { ($0 as? EngageError)?.code == .notConfigured }
        #expect(unconfigured.requests(path: "/redeem/1234").isEmpty)
        #expect(harness.requests(path: "/redeem/1234").isEmpty)
        await unconfigured.stop()
    }

    @Test("Telemetry: at most three reports per provider, counted 1 to 3, none carrying a consumer or order value")
    func telemetryCapAndPrivacy() async throws {
        let harness = try await SovendusHarness.make { $0.trafficMediumPublicID = UUID(uuidString: "11111111-2222-4333-8444-555555555555") }
        let consumer = try SovendusFixtures.consumer()
        for _ in 0..<5 {
            _ = try? await harness.sovendus.redeemCoupon(for: SovendusFixtures.order, consumer: consumer)
        }
        // A refused bridge message counts too, but the cap is already reached.
        await MainActor.run {
            _ = harness.sovendus.bridge(onHeight: { _ in }, openURL: { _ in }).receive(["type": "openUrl", "value": "javascript:x"])
        }
        await harness.sovendus.telemetry.drain()
        let reports = harness.emulator.errorReports
        #expect(reports.map(\.counter) == [1, 2, 3])
        #expect(reports.allSatisfy { $0.message == "redeem_coupon failed: sovendus.redemptionFailed (HTTP 500)" })
        let values = [
            "John", "Smith", "Example@Example.com", "example@example.com", "23463b99b62a72f26ed677cc556c44e8", "+4915546456456", "1990",
            "01.12.1990", "Main Street", "12/1", "76135", "Karlsruhe", "Order-123", "WELCOME10", "120.5", "s-1",
        ]
        for report in reports {
            let body = String(decoding: report.body, as: UTF8.self)
            for value in values {
                #expect(!body.contains(value), "a telemetry report carries \(value)")
            }
            let object = try #require(try JSONSerialization.jsonObject(with: report.body) as? [String: Any])
            // The official iOS SDK's ErrorRequest fields, and the Flutter component's.
            #expect(object["type"] as? String == "unknown", "an HTTP 500 is of no known kind")
            #expect(object["sdkPlatform"] as? String == SovendusTelemetry.platform && object["sdkVersion"] as? String == "1.0.0")
            #expect(object["trafficSourceNumber"] as? Int == 1234 && object["trafficMediumNumber"] as? Int == 1)
            #expect(object["actions"] as? String == "redeem_coupon")
            #expect(object["trafficSource"] as? String == "1234" && object["trafficMedium"] as? String == "1")
            #expect(
                Set(object.keys) == [
                    "sdkPlatform", "sdkVersion", "trafficSourceNumber", "trafficMediumNumber", "type", "message", "actions",
                    "additionalData",
                    "source", "counter", "trafficSource", "trafficMedium", "implementationType",
                ])
        }
        await harness.stop()
    }

    @Test("Reports reach Sovendus in their counter's order, even when the first one is slow to arrive")
    func telemetryOrder() async throws {
        let harness = try await SovendusHarness.make { $0.trafficMediumPublicID = UUID(uuidString: "11111111-2222-4333-8444-555555555555") }
        harness.host.faults.inject(FaultRule(.delay(.milliseconds(300)), emulatorID: "sovendus", path: "/error", trigger: .times(1)))
        let consumer = try SovendusFixtures.consumer()
        for _ in 0..<3 {
            _ = try? await harness.sovendus.redeemCoupon(for: SovendusFixtures.order, consumer: consumer)
        }
        await harness.sovendus.telemetry.drain()
        #expect(harness.emulator.errorReports.map(\.counter) == [1, 2, 3])
        await harness.stop()
    }

    @Test("Report kinds are the official SDK's: a 404 is notFound, the network and 5xx unknown, the rest exception")
    func reportKinds() async throws {
        let harness = try await SovendusHarness.make { $0.trafficSourceNumber = 9_999 }
        // The emulator knows no traffic source 9999: its benefits answer 404.
        _ = try? await harness.sovendus.benefits(language: "en")
        await harness.sovendus.telemetry.drain()
        #expect(harness.emulator.errorReports.map(\.type) == ["notFound"])
        await harness.stop()
        #expect(SovendusTelemetry.kind(of: EngageError(.network, "offline")) == .unknown)
        #expect(SovendusTelemetry.kind(of: EngageError(.timeout, "slow")) == .unknown)
        #expect(SovendusTelemetry.kind(of: EngageError(.httpStatus, "bad gateway", httpStatus: 502)) == .unknown)
        #expect(SovendusTelemetry.kind(of: EngageError(.decoding, "not JSON")) == .exception)
        #expect(Set(SovendusWire.ErrorReport.Kind.allCases.map(\.rawValue)) == ["unknown", "notFound", "exception", "cors"])
    }

    @Test("A refused bridge message is reported; with reportsErrors off nothing is")
    func bridgeRefusalsAndOptOut() async throws {
        let harness = try await SovendusHarness.make()
        let bridge = harness.sovendus.bridge(onHeight: { _ in }, openURL: { _ in })
        await MainActor.run { _ = bridge.receive(["type": "openUrl", "value": "intent://x#Intent;end"]) }
        await harness.sovendus.telemetry.drain()
        #expect(harness.emulator.errorReports.map(\.message) == ["bridge failed: sovendus.rejectedMessage"])
        #expect(harness.emulator.errorReports.map(\.type) == ["exception"])
        await harness.stop()

        let quiet = try await SovendusHarness.make {
            $0.reportsErrors = false
            $0.trafficMediumPublicID = UUID(uuidString: "11111111-2222-4333-8444-555555555555")
        }
        _ = try? await quiet.sovendus.redeemCoupon(for: SovendusFixtures.order, consumer: try SovendusFixtures.consumer())
        await quiet.sovendus.telemetry.drain()
        #expect(quiet.emulator.errorReports.isEmpty)
        #expect(quiet.requests(path: "/error").isEmpty)
        await quiet.stop()
    }

    @Test("The callback form delivers the receipt, and each operation publishes its event")
    func callbacksAndEvents() async throws {
        let harness = try await SovendusHarness.make()
        let names = Locked<[String]>([])
        let subscription = harness.registry.events.subscribe(to: OperationEvent.self) { event in names.withLock { $0.append(event.name) } }
        let result = await withCheckedContinuation { continuation in
            harness.sovendus.redeemCoupon(for: SovendusFixtures.order, consumer: SovendusConsumer(email: "a@b.test")) {
                continuation.resume(returning: $0)
            }
        }
        #expect((try? result.get())?.message == "Coupon redemption received.")
        let failed = await withCheckedContinuation { continuation in
            harness.sovendus.redeemCoupon(for: SovendusFixtures.order, consumer: SovendusConsumer()) { continuation.resume(returning: $0) }
        }
        #expect(throws: EngageError.self) { try failed.get() }
        _ = try await harness.sovendus.benefits()
        #expect(await waitUntil { names.value.count == 3 })
        #expect(
            names.value == [
                "custom_success_redeem_coupon_sovendus", "custom_error_redeem_coupon_sovendus", "custom_success_benefits_sovendus",
            ])
        subscription.cancel()
        await harness.stop()
    }
}
