@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageSovendus
@_spi(EngageProvider) import EngageSandbox
import Foundation
import EngageTestTraits
import Testing

@Suite("Sovendus page: encoder and builder", .bounded)
struct SovendusPageTests {
    @Test("The script encoder round-trips 2,000 random Unicode strings and writes none of < > & U+2028 U+2029 raw")
    func encoderRoundTrips() throws {
        var generator = SeededGenerator(seed: 2026, stream: "sovendus/encoder")
        // Weighted towards the characters that matter in a script block, plus the whole scalar range.
        let specials: [Unicode.Scalar] = [
            "<", ">", "&", "/", "\\", "\"", "'", "`", "$", "{", "}", "!", "-", "\u{0}", "\n", "\r", "\u{2028}", "\u{2029}", "\u{FEFF}",
        ]
        for _ in 0..<2_000 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...40, using: &generator) {
                if Bool.random(using: &generator), let special = specials.randomElement(using: &generator) {
                    scalars.append(special)
                } else if let scalar = Unicode.Scalar(UInt32.random(in: 0...0x10FFFF, using: &generator)) {
                    scalars.append(scalar)
                }
            }
            let value = String(scalars)
            let encoded = try SovendusPageEncoding.scriptJSON(["value": value])
            #expect(!encoded.unicodeScalars.contains { ["<", ">", "&", "\u{2028}", "\u{2029}"].contains($0) })
            let decoded = try JSONDecoder().decode([String: String].self, from: Data(encoded.utf8))
            #expect(decoded["value"] == value)
        }
    }

    @Test("A script-closing value stays inside its JSON string")
    func scriptClosingValue() throws {
        let encoded = try SovendusPageEncoding.scriptJSON(["a": "</script><!--\u{2028}&"])
        #expect(encoded == #"{"a":"\u003c\/script\u003e\u003c!--\u2028\u0026"}"#)
        #expect(SovendusPageEncoding.attribute(#"a"b'c<d>&"#) == "a&quot;b&#39;c&lt;d&gt;&amp;")
    }

    @Test("The page carries every field as a string, the CSP names its inline script's hash, and integrationType names the SDK")
    func pageContents() throws {
        let builder = SovendusFixtures.builder()
        let page = try builder.page(
            order: SovendusFixtures.order, consumer: try SovendusFixtures.consumer(), platform: .android, now: SovendusHarness.now)
        #expect(page.baseURL.absoluteString == "http://127.0.0.1:8080/")
        #expect(page.initialHeight == 348)
        #expect(page.html.contains(#"<script src="http://127.0.0.1:8080/sovendus/sovabo/common/js/flexibleIframe.js" async></script>"#))
        #expect(page.html.contains("window.sovHandler.postMessage(JSON.stringify({ type: type, value: value }))"))
        #expect(!page.html.contains("webkit.messageHandlers"))
        // The hash in the policy is the SHA-256 of exactly the inline script's text.
        let start = try #require(page.html.range(of: "<script>"))
        let end = try #require(page.html.range(of: "</script>", range: start.upperBound..<page.html.endIndex))
        let script = String(page.html[start.upperBound..<end.lowerBound])
        let policyHash = try #require(page.contentSecurityPolicy.split(separator: "'").first { $0.hasPrefix("sha256-") })
        #expect(String(policyHash.dropFirst("sha256-".count)) == SovendusTestCrypto.sha256Base64(script))
        #expect(
            page.contentSecurityPolicy.contains("script-src 'sha256-") && page.contentSecurityPolicy.contains(" http://127.0.0.1:8080;"))
        #expect(page.contentSecurityPolicy.hasPrefix("default-src 'none'"))

        let data = try #require(script.split(separator: "\n").first { $0.contains("var data = ") })
        let json = String(data.drop { $0 != "{" }.dropLast())
        let decoded = try JSONDecoder().decode(Decoded.self, from: Data(json.utf8))
        #expect(
            decoded.iframes == [
                [
                    "trafficSourceNumber": "1234", "trafficMediumNumber": "1", "iframeContainerId": "sovendus-voucher-banner",
                    "timestamp": "1790000000", "sessionId": "s-1", "orderId": "Order-123", "orderValue": "120.50", "orderCurrency": "EUR",
                    "usedCouponCode": "WELCOME10", "integrationType": "engagekit-android-1.0.0",
                ]
            ])
        #expect(!page.html.contains("sovendus-checkout-benefits-banner"))
        #expect(
            decoded.consumer == [
                "consumerSalutation": "Mr.", "consumerFirstName": "John", "consumerLastName": "Smith",
                "consumerEmail": "  Example@Example.com ",
                "consumerEmailHash": "23463b99b62a72f26ed677cc556c44e8", "consumerPhone": "+4915546456456", "consumerYearOfBirth": "1990",
                "consumerDateOfBirth": "01.12.1990", "consumerStreet": "Main Street", "consumerStreetNumber": "12/1",
                "consumerZipcode": "76135",
                "consumerCity": "Karlsruhe", "consumerCountry": "DE", "consumerLanguage": "de",
            ])
    }

    struct Decoded: Decodable {
        var iframes: [[String: String]]
        var consumer: [String: String]
    }

    @Test("With a Checkout Benefits number the page has its container and a second sovIframes entry with its numbers only")
    func checkoutBenefitsBanner() throws {
        var configuration = SovendusFixtures.builder().configuration
        configuration.checkoutBenefitsTrafficMediumNumber = 7
        let builder = SovendusPageBuilder(configuration: configuration, integrationVersion: "1.0.0")
        let page = try builder.page(order: SovendusFixtures.order, consumer: nil, platform: .ios, now: SovendusHarness.now)
        let voucher = try #require(page.html.range(of: #"<div id="sovendus-voucher-banner"></div>"#))
        let benefits = try #require(page.html.range(of: #"<div id="sovendus-checkout-benefits-banner"></div>"#))
        #expect(voucher.upperBound <= benefits.lowerBound, "the Checkout Benefits banner is below the Voucher Network one")
        let start = try #require(page.html.range(of: "<script>"))
        let end = try #require(page.html.range(of: "</script>", range: start.upperBound..<page.html.endIndex))
        let line = try #require(page.html[start.upperBound..<end.lowerBound].split(separator: "\n").first { $0.contains("var data = ") })
        let decoded = try JSONDecoder().decode(Decoded.self, from: Data(String(line.drop { $0 != "{" }.dropLast()).utf8))
        #expect(decoded.iframes.count == 2 && decoded.iframes[0]["iframeContainerId"] == "sovendus-voucher-banner")
        #expect(
            decoded.iframes[1] == [
                "trafficSourceNumber": "1234", "trafficMediumNumber": "7", "iframeContainerId": "sovendus-checkout-benefits-banner",
            ])
        #expect(page.html.contains(#"window.addEventListener("openInNativeBrowser""#))

        configuration.checkoutBenefitsTrafficMediumNumber = 0
        #expect(configuration.validationIssues().contains { $0.hasPrefix("checkoutBenefitsTrafficMediumNumber") })
        let decodedConfiguration = try JSONDecoder().decode(
            SovendusConfiguration.self,
            from: Data(#"{"trafficSourceNumber": 1, "trafficMediumNumber": 2, "checkoutBenefitsTrafficMediumNumber": 3}"#.utf8))
        #expect(decodedConfiguration.checkoutBenefitsTrafficMediumNumber == 3)
    }

    @Test("Without an order time the page uses the provider's clock; without a consumer every consumer field is empty")
    func defaults() throws {
        let order = SovendusOrder(id: "o-1", netValue: 5, currency: "CHF")
        let builder = SovendusFixtures.builder()
        let page = try builder.page(order: order, consumer: nil, platform: .ios, now: Date(timeIntervalSince1970: 1_800_000_000.9))
        #expect(page.html.contains(#""timestamp":"1800000000""#))
        #expect(page.html.contains(#""orderValue":"5.00""#))
        #expect(page.html.contains(#""consumerEmailHash":"""#) && page.html.contains(#""usedCouponCode":"""#))
    }

    @Test(
        "Order values are written with two decimals and a dot, rounding half away from zero",
        arguments: [
            ("12.34", "12.34"), ("12.3", "12.30"), ("0", "0.00"), ("0.005", "0.01"), ("0.004", "0.00"), ("120.5", "120.50"),
            ("999999999999.99", "999999999999.99"), ("7", "7.00"), ("0.1", "0.10"), ("1.995", "2.00"),
        ]
    )
    func orderValueFormat(input: String, expected: String) throws {
        let value = try #require(Decimal(string: input, locale: Locale(identifier: "en_US_POSIX")))
        #expect(SovendusText.twoDecimals(value) == expected)
    }

    @Test("The value format ignores the device locale")
    func valueFormatIgnoresLocale() throws {
        let value = try #require(Decimal(string: "1234,5", locale: Locale(identifier: "de_DE")))
        #expect(SovendusText.twoDecimals(value) == "1234.50")
    }

    @Test(
        "Orders and consumers that cannot be sent are refused with the field named, and nothing is built",
        arguments: [
            (SovendusOrder(id: "", netValue: 1, currency: "EUR"), nil, "order id"),
            (SovendusOrder(id: "o", netValue: -0.01, currency: "EUR"), nil, "negative"),
            (SovendusOrder(id: "o", netValue: Decimal.nan, currency: "EUR"), nil, "finite"),
            (SovendusOrder(id: "o", netValue: Decimal(string: "1000000000000")!, currency: "EUR"), nil, "trillion"),
            (SovendusOrder(id: "o", netValue: 1, currency: "eur"), nil, "ISO 4217"),
            (SovendusOrder(id: "o", netValue: 1, currency: "EURO"), nil, "ISO 4217"),
            (SovendusOrder(id: String(repeating: "x", count: 70_000), netValue: 1, currency: "EUR"), nil, "bytes"),
            (SovendusOrder(id: "o", netValue: 1, currency: "EUR"), SovendusConsumer(yearOfBirth: 1850), "year of birth"),
            (SovendusOrder(id: "o", netValue: 1, currency: "EUR", placedAt: Date(timeIntervalSince1970: .nan)), nil, "order time"),
            (SovendusOrder(id: "o", netValue: 1, currency: "EUR", placedAt: Date(timeIntervalSince1970: 1e300)), nil, "order time"),
            (SovendusOrder(id: "o", netValue: 1, currency: "EUR", placedAt: .distantPast), nil, "order time"),
            (SovendusOrder(id: "o", netValue: 1, currency: "EUR"), SovendusConsumer(country: "Germany"), "ISO 3166"),
            (SovendusOrder(id: "o", netValue: 1, currency: "EUR"), SovendusConsumer(country: "de"), "ISO 3166"),
            (SovendusOrder(id: "o", netValue: 1, currency: "EUR"), SovendusConsumer(language: "</script>"), "language"),
            (SovendusOrder(id: "o", netValue: 1, currency: "EUR"), SovendusConsumer(city: String(repeating: "😀", count: 20_000)), "city"),
        ] as [(SovendusOrder, SovendusConsumer?, String)]
    )
    func invalidInput(order: SovendusOrder, consumer: SovendusConsumer?, named: String) {
        #expect {
            _ = try SovendusFixtures.builder().page(order: order, consumer: consumer, platform: .ios, now: SovendusHarness.now)
        } throws: { error in
            guard let error = error as? EngageError else { return false }
            return error.code == .invalidInput && error.providerID == .sovendus && error.message.contains(named)
        }
    }

    @Test("Dates of birth are checked and written dd.MM.yyyy")
    func birthDates() throws {
        #expect(try SovendusConsumer.BirthDate(year: 1990, month: 12, day: 1).description == "01.12.1990")
        #expect(try SovendusConsumer.BirthDate(year: 2000, month: 2, day: 29).description == "29.02.2000")
        for (year, month, day) in [(1900, 2, 29), (2023, 2, 29), (1990, 4, 31), (1990, 13, 1), (1990, 0, 1), (1899, 1, 1), (1990, 1, 0)] {
            #expect(throws: EngageError.self) { try SovendusConsumer.BirthDate(year: year, month: month, day: day) }
        }
        // Decoding runs the same checks.
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode(SovendusConsumer.BirthDate.self, from: Data(#"{"year":1990,"month":2,"day":30}"#.utf8))
        }
        let decoded = try JSONDecoder().decode(SovendusConsumer.BirthDate.self, from: Data(#"{"year":1990,"month":12,"day":1}"#.utf8))
        #expect(decoded.description == "01.12.1990")
        do {
            _ = try SovendusConsumer.BirthDate(year: 1990, month: 2, day: 30)
        } catch {
            #expect(!error.message.contains("1990"), "the error repeats the date of birth")
        }
    }

    @Test("The e-mail hash is the MD5 of the trimmed, lower-cased address")
    func emailHash() {
        #expect(SovendusConsumer(email: "example@example.com").emailHash == "23463b99b62a72f26ed677cc556c44e8")
        #expect(SovendusConsumer(email: "\t EXAMPLE@example.COM\n").emailHash == "23463b99b62a72f26ed677cc556c44e8")
        #expect(SovendusConsumer().emailHash == nil)
    }

    @Test("Consumers, orders and pages never show personal data or the coupon through description, dump or Mirror")
    func noPersonalDataInDescriptions() throws {
        let consumer = try SovendusFixtures.consumer()
        let page = try SovendusFixtures.builder().page(
            order: SovendusFixtures.order, consumer: consumer, platform: .ios, now: SovendusHarness.now)
        let secrets = ["John", "Smith", "Example@Example.com", "4915546456456", "Main Street", "76135", "Karlsruhe", "WELCOME10"]
        for value in [consumer as Any, SovendusFixtures.order, page] {
            var dumped = ""
            dump(value, to: &dumped)
            let texts = [
                String(describing: value), String(reflecting: value), dumped,
                Mirror(reflecting: value).children.map { "\($0.value)" }.joined(),
            ]
            for text in texts {
                for secret in secrets {
                    #expect(!text.contains(secret), "\(type(of: value)) shows \(secret): \(text)")
                }
            }
        }
        #expect(String(describing: consumer).contains("firstName"))
    }
}
