@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageSovendus
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import HTTPTypes
import SovendusEmulator
import EngageTestTraits
import Testing

@Suite("Sovendus benefits, configuration and the emulator's rules", .bounded)
struct SovendusBenefitsTests {
    @Test("Benefits send only which consumer fields exist, never a value, and decode leniently where it is safe")
    func benefitsKeepThePrivacyRule() async throws {
        let harness = try await SovendusHarness.make()
        let consumer = try SovendusFixtures.consumer()
        let benefits = try await harness.sovendus.benefits(for: consumer, language: "de")
        #expect(benefits.products.map(\.id) == ["bnf-101", "bnf-102", "bnf-103"])
        #expect(benefits.products.first?.name == "10 € Gutschein für Ihre erste Bestellung")
        #expect(benefits.products.first?.value == Money(minorUnits: 1_000, currency: "EUR"))
        #expect(benefits.products.first?.validUntil == Date(timeIntervalSince1970: 1_806_537_599))
        #expect(benefits.products.last?.imageURL == nil, "an unusable image URL costs only the image")
        #expect(benefits.banner?.bannerURL?.absoluteString == "https://vouchers.sovendus.test/banner")

        let entry = try #require(harness.requests(path: "/benefits").first)
        let body = String(decoding: entry.body, as: UTF8.self)
        for value in [
            "John", "Smith", "xample.com", "23463b99", "4915546456456", "1990", "Main Street", "12/1", "76135", "Karlsruhe", "\"DE\"",
        ] {
            #expect(!body.contains(value), "the benefits request carries \(value)")
        }
        let request = try JSONDecoder().decode(SovendusWire.BenefitsRequest.self, from: entry.body)
        #expect(request.consumer.values.allSatisfy { $0 })
        #expect(request.consumer.count == 13)
        #expect(request.language == "de")
        // Without a language argument none is sent: the consumer's own language is personal data.
        _ = try await harness.sovendus.benefits(for: consumer)
        let second = try #require(harness.requests(path: "/benefits").last)
        #expect(try JSONDecoder().decode(SovendusWire.BenefitsRequest.self, from: second.body).language == nil)
        #expect(!String(decoding: second.body, as: UTF8.self).contains("\"de\""))
        #expect(harness.emulator.benefitRequests.last?["email"] == true)

        let anonymous = try await harness.sovendus.benefits(language: "en")
        #expect(anonymous.products.map(\.id) == ["bnf-101", "bnf-102"])
        #expect(harness.emulator.benefitRequests.last?.values.contains(true) == false)
        await harness.stop()
    }

    @Test("Sandbox mode: the benefits request says so and gets the test content, reports say so; off by default")
    func sandboxMode() async throws {
        let live = try await SovendusHarness.make()
        _ = try await live.sovendus.benefits(language: "en")
        let liveEntry = try #require(live.requests(path: "/benefits").last)
        #expect(try JSONDecoder().decode(SovendusWire.BenefitsRequest.self, from: liveEntry.body).sandbox == false)
        #expect(live.emulator.sandboxBenefitRequestCount == 0)
        await live.stop()

        let harness = try await SovendusHarness.make {
            $0.sandbox = true
            $0.trafficMediumPublicID = UUID(uuidString: "11111111-2222-4333-8444-555555555555")
        }
        let benefits = try await harness.sovendus.benefits(language: "en")
        #expect(benefits.products.map(\.id) == ["sandbox-bnf-101", "sandbox-bnf-102"])
        #expect(benefits.products.first?.url?.host == "sandbox.sovendus.test")
        #expect(harness.emulator.sandboxBenefitRequestCount == 1)
        // A failure (the emulator knows no such traffic medium id) is reported as coming from a sandboxed app.
        _ = try? await harness.sovendus.redeemCoupon(for: SovendusFixtures.order, consumer: try SovendusFixtures.consumer())
        await harness.sovendus.telemetry.drain()
        let report = try #require(harness.emulator.errorReports.first)
        let object = try #require(try JSONSerialization.jsonObject(with: report.body) as? [String: Any])
        #expect((object["additionalData"] as? String)?.hasSuffix(";sandbox=true") == true)
        await harness.stop()

        let decoded = try JSONDecoder().decode(
            SovendusConfiguration.self, from: Data(#"{"trafficSourceNumber": 1, "trafficMediumNumber": 2, "sandbox": true}"#.utf8))
        #expect(decoded.sandbox)
        #expect(try JSONDecoder().decode(SovendusConfiguration.self, from: JSONEncoder().encode(decoded)) == decoded)
        #expect(SovendusConfiguration(trafficSourceNumber: 1, trafficMediumNumber: 2).sandbox == false)
    }

    @Test("Benefits reach the facade as voucher offers, paged by the query")
    func benefitsAsOffers() async throws {
        let harness = try await SovendusHarness.make()
        let offers = try await harness.sovendus.offers(OfferQuery(language: "en", page: PageRequest(offset: 1, limit: 5)))
        #expect(offers.map(\.id) == ["bnf-102"])
        #expect(offers.allSatisfy { $0.kind == .voucher && $0.providerID == .sovendus })
        #expect(offers.first?.attributes["partner"] == "Brewhouse")
        await harness.stop()
    }

    @Test("Without benefitsBaseURL benefits fail with .notConfigured and nothing is sent; a bad language is refused")
    func benefitsNeedTheirBase() async throws {
        let harness = try await SovendusHarness.make { $0.benefitsBaseURL = nil }
        await #expect { _ = try await harness.sovendus.benefits() } throws: { ($0 as? EngageError)?.code == .notConfigured }
        #expect(harness.requests(path: "/benefits").isEmpty)
        await harness.stop()
        let configured = try await SovendusHarness.make()
        await #expect { _ = try await configured.sovendus.benefits(language: "de_DE;drop") } throws: {
            ($0 as? EngageError)?.code == .invalidInput
        }
        await configured.stop()
    }

    @Test("200 hostile variations of the benefits answer: values or EngageErrors, never a trap")
    func hostileBenefitsAnswers() async throws {
        let answers = HostileAnswers()
        let harness = try await SovendusHarness.make(transport: answers)
        let outcomes = await answers.sweep(count: 200, seed: 77) { () async throws(EngageError) in
            _ = try await harness.sovendus.benefits(language: "de")
        }
        #expect(outcomes.count >= 200)
        let failures = outcomes.compactMap { outcome -> EngageError? in
            if case let .failure(error) = outcome { return error }
            return nil
        }
        #expect(failures.allSatisfy { $0.providerID == .sovendus })
        #expect(failures.contains { $0.code == .decoding })
        await harness.stop()
    }

    @Test("Wrong values in a benefits answer are decoding errors naming the field")
    func strictValues() throws {
        typealias Product = SovendusWire.BenefitsResponse.Product
        let cases: [(Product, String)] = [
            (Product(id: "a", name: "A", value: "10,00", currency: "EUR"), "products[0].value"),
            (Product(id: "a", name: "A", value: "-5.00", currency: "EUR"), "products[0].value"),
            (Product(id: "a", name: "A", value: "5.00"), "products[0].currency"),
            (Product(id: "a", name: "A", validUntil: "next week"), "products[0].validUntil"),
        ]
        for (product, field) in cases {
            #expect {
                _ = try SovendusWire.BenefitsResponse(products: [product], banner: nil).benefits()
            } throws: { error in
                guard let error = error as? EngageError else { return false }
                return error.code == .decoding && error.message.contains(field)
            }
        }
    }

    @Test("Configuration: JSON needs only the traffic numbers; bad numbers, URLs, heights and UUIDs are named")
    func configuration() throws {
        let minimal = try JSONDecoder().decode(
            SovendusConfiguration.self, from: Data(#"{"trafficSourceNumber": 5432, "trafficMediumNumber": 1}"#.utf8))
        #expect(minimal.validationIssues().isEmpty)
        #expect(minimal.scriptURL == SovendusConfiguration.defaultScriptURL)
        #expect(minimal.bannerInitialHeight == 348 && minimal.minimumBannerHeight == 100 && minimal.reportsErrors)
        #expect(minimal.benefitsBaseURL == nil && minimal.trafficMediumPublicID == nil)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(
                SovendusConfiguration.self,
                from: Data(#"{"trafficSourceNumber": 1, "trafficMediumNumber": 1, "trafficMediumPublicID": "not-a-uuid"}"#.utf8)
            )
        }
        var bad = SovendusConfiguration(trafficSourceNumber: -4, trafficMediumNumber: 1_000_000_000)
        bad.scriptURL = URL(string: "ftp://x.test/s.js?v=1")!
        bad.bannerInitialHeight = .nan
        bad.minimumBannerHeight = -1
        bad.benefitsBaseURL = URL(string: "/relative")!
        let issues = bad.validationIssues().joined(separator: " ")
        for named in [
            "trafficSourceNumber", "trafficMediumNumber", "scriptURL must be an absolute", "query or fragment", "bannerInitialHeight",
            "minimumBannerHeight", "benefitsBaseURL",
        ] {
            #expect(issues.contains(named), "missing: \(named)")
        }
    }

    @Test("The emulator validates redemptions as Sovendus does")
    func emulatorRedemptionRules() async throws {
        let harness = try await SovendusHarness.make()
        let medium = SovendusEmulator.seededTrafficMediumPublicID.uuidString
        let valid: [String: Any] = [
            "email_hash": String(repeating: "a", count: 32), "traffic_medium_public_id": medium, "order_value": "12.34",
            "order_currency": "EUR", "order_id": "o-1", "coupon_code": "C",
        ]
        func post(_ path: String, _ body: [String: Any]) async throws -> Int {
            var request = URLRequest(url: harness.base.appendingPathComponent(path))
            request.httpMethod = "POST"
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            let (_, response) = try await URLSession.shared.data(for: request)
            return (response as? HTTPURLResponse)?.statusCode ?? 0
        }
        #expect(try await post("redeem/1234", valid) == 200)
        #expect(try await post("redeem/12a4", valid) == 404)
        #expect(try await post("redeem/9999", valid) == 500)
        #expect(try await post("redeem/1234", valid.merging(["traffic_medium_public_id": UUID().uuidString]) { $1 }) == 500)
        let broken: [(String, Any)] = [
            ("email_hash", "ABC"), ("email_hash", String(repeating: "A", count: 32)), ("traffic_medium_public_id", "x"),
            ("order_value", "12.3"), ("order_value", "12,34"), ("order_value", 12.34), ("order_value", "-1.00"), ("order_currency", "eur"),
            ("order_id", ""), ("coupon_code", ""), ("coupon_code", 5),
        ]
        for (key, value) in broken {
            #expect(try await post("redeem/1234", valid.merging([key: value]) { $1 }) == 422, "\(key) = \(value)")
        }
        var missing = valid
        missing["order_id"] = nil
        #expect(try await post("redeem/1234", missing) == 422)
        #expect(harness.emulator.redemptions.count == 1)
        #expect(
            try await post(
                "benefits",
                [
                    "trafficSourceNumber": "1234", "trafficMediumNumber": "1", "integrationType": "x",
                    "consumer": ["email": "eva@example.com"],
                ]) == 400)
        #expect(
            try await post(
                "benefits",
                [
                    "trafficSourceNumber": "1234", "trafficMediumNumber": "1", "integrationType": "x", "email": "eva@example.com",
                    "consumer": [String: Bool](),
                ]) == 400)
        #expect(
            try await post(
                "benefits", ["trafficSourceNumber": "9", "trafficMediumNumber": "1", "integrationType": "x", "consumer": [String: Bool]()])
                == 404)
        #expect(try await post("error", ["type": "exception"]) == 400)
        await harness.stop()
    }
}
