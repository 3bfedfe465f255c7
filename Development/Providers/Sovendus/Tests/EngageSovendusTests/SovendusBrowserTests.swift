@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageSovendus
@_spi(EngageProvider) @testable import EngageTesting
import EngageEmulators
import Foundation
import SovendusEmulator
import EngageTestTraits
import Testing

/// Whether the browser tests run: always in CI (which installs Debian's chromium, so a missing
/// browser fails them), elsewhere when a Chromium is installed.
let browserTestsEnabled = HeadlessChromium.executablePath != nil || ProcessInfo.processInfo.environment["CI"] != nil

/// Stand-ins for every platform's native side, installed before the page's scripts: each records what
/// it receives in `window.__native` as `{via, body}`. The web transport (`parent.postMessage`) reaches
/// the page itself when it is the top window, so a `message` listener records those.
let nativeStubs = """
    window.__native = [];
    (function () {
      function record(via, body) { window.__native.push({ via: via, body: JSON.parse(JSON.stringify(body)) }); }
      window.webkit = { messageHandlers: { sovHandler: { postMessage: function (body) { record("ios", body); } } } };
      window.sovHandler = { postMessage: function (body) { record("android", body); } };
      window.flutter_inappwebview = { callHandler: function (name, body) { record("flutter:" + name, body); } };
      window.ReactNativeWebView = { postMessage: function (body) { record("react-native", body); } };
      window.addEventListener("message", function (event) {
        if (event.data && typeof event.data === "object" && "type" in event.data && !("channel" in event.data)) { record("web", event.data); }
      });
    })();
    """

/// One message the stand-ins recorded.
struct RecordedMessage: Decodable {
    var via: String
    var body: JSONValue
}

extension JSONValue {
    /// The value as Foundation objects, as a web view hands it over.
    var foundationObject: Any {
        switch self {
        case let .string(text): return text
        case let .integer(number): return Int(number)
        case let .number(number): return number
        case let .bool(flag): return flag
        case let .array(items): return items.map(\.foundationObject)
        case let .object(fields): return fields.mapValues(\.foundationObject)
        case .null: return NSNull()
        }
    }
}

@Suite("Sovendus banner page in headless Chromium", .enabled(if: browserTestsEnabled), .serialized, .bounded)
struct SovendusBrowserTests {
    static let transports: [(SovendusPlatform, String)] = [
        (.ios, "ios"), (.android, "android"), (.flutter, "flutter:sovHandler"), (.reactNative, "react-native"), (.web, "web"),
    ]

    @Test(
        "The banner renders, reports a height above 100 and opens the voucher URL on a click, through each platform's transport",
        arguments: transports)
    func bannerThroughTransport(platform: SovendusPlatform, via: String) async throws {
        let harness = try await SovendusHarness.make()
        let consumer = try SovendusFixtures.consumer()
        let page = try harness.sovendus.bannerPage(for: SovendusFixtures.order, consumer: consumer, platform: platform)
        let url = harness.base.appendingPathComponent(harness.emulator.hostPage(page.html))

        let tab = try await HeadlessChromium.shared().newTab()
        try await tab.addScriptOnNewDocument(nativeStubs)
        try await tab.navigate(to: url)
        #expect(try await tab.waitFor("document.getElementById('sovendus-voucher-button') !== null"))
        let title: String = try await tab.evaluate("document.getElementById('sovendus-banner-title').textContent")
        #expect(title == "Thank you, John!")

        // The stand-in script starts at 60 px (ignored by the bridge) and grows to 420 px.
        var heights: [Double] = []
        let grew = await waitUntil {
            heights = ((try? await acceptedMessages(tab, via: via)) ?? []).compactMap { message in
                if case let .height(height) = message { return height } else { return nil }
            }
            return heights.contains { $0 >= 420 }
        }
        #expect(grew, "heights the bridge accepted: \(heights)")
        #expect(heights.allSatisfy { $0 > 100 })
        try await tab.click("#sovendus-voucher-button")
        #expect(try await tab.waitFor("window.__native.some(function (m) { return JSON.stringify(m.body).indexOf('openUrl') >= 0; })"))
        let opened = try await acceptedMessages(tab, via: via).compactMap { message -> URL? in
            if case let .openURL(url) = message { return url } else { return nil }
        }
        let expected = try #require(SovendusEmulator.voucherURL(trafficSource: "1234", trafficMedium: "1", orderID: "Order-123"))
        #expect(opened == [expected])
        await tab.close()
        await harness.stop()
    }

    @Test("With a Checkout Benefits number both banners render, and a link asked for with the window event reaches the bridge")
    func checkoutBenefitsBannerAndWindowEvent() async throws {
        let harness = try await SovendusHarness.make { $0.checkoutBenefitsTrafficMediumNumber = 7 }
        let page = try harness.sovendus.bannerPage(for: SovendusFixtures.order, consumer: try SovendusFixtures.consumer(), platform: .ios)
        let url = harness.base.appendingPathComponent(harness.emulator.hostPage(page.html))
        let tab = try await HeadlessChromium.shared().newTab()
        try await tab.addScriptOnNewDocument(nativeStubs)
        try await tab.navigate(to: url)
        #expect(try await tab.waitFor("document.getElementById('sovendus-voucher-button') !== null"))
        #expect(try await tab.waitFor("document.getElementById('sovendus-checkout-benefits-button') !== null"))
        // The Voucher Network banner grows to 420 px after it renders, moving this button: click once
        // the layout has settled. Below that banner, maybe below the fold: bring it into view.
        #expect(try await tab.waitFor("document.querySelector('#sovendus-voucher-banner .sovendus-banner').style.height === '420px'"))
        let _: Bool = try await tab.evaluate(
            "(document.getElementById('sovendus-checkout-benefits-button').scrollIntoView({ block: 'center' }), true)")
        try await tab.click("#sovendus-checkout-benefits-button")
        #expect(try await tab.waitFor("window.__native.some(function (m) { return JSON.stringify(m.body).indexOf('openUrl') >= 0; })"))
        let opened = try await acceptedMessages(tab, via: "ios").compactMap { message -> URL? in
            if case let .openURL(url) = message { return url } else { return nil }
        }
        #expect(opened == [try #require(SovendusEmulator.checkoutBenefitsURL(trafficSource: "1234", trafficMedium: "7"))])

        // The event with a URL the bridge refuses is forwarded, and refused natively like a posted one.
        let _: Bool = try await tab.evaluate(
            "(window.dispatchEvent(new CustomEvent('openInNativeBrowser', { detail: { url: 'javascript:alert(1)' } })), true)")
        #expect(
            try await tab.waitFor(
                "window.__native.filter(function (m) { return JSON.stringify(m.body).indexOf('openUrl') >= 0; }).length === 2"))
        let recorded: [RecordedMessage] = try await tab.evaluate("window.__native")
        let refused = recorded.filter { record in
            do {
                _ = try SovendusBridge.message(from: record.body.foundationObject)
                return false
            } catch {
                return true
            }
        }
        #expect(refused.count == 1)
        await tab.close()
        await harness.stop()
    }

    /// Every message recorded so far came through `via`; returns those the bridge acts on.
    func acceptedMessages(_ tab: ChromiumTab, via: String) async throws -> [SovendusBridgeMessage] {
        let recorded: [RecordedMessage] = try await tab.evaluate("window.__native")
        #expect(recorded.allSatisfy { $0.via == via }, "transports used: \(Set(recorded.map(\.via)))")
        return try recorded.compactMap { try SovendusBridge.message(from: $0.body.foundationObject) }
    }

    @Test(
        "The Content-Security-Policy lets the page's own script and the banner script run, and blocks an injected inline script and handler that run without it"
    )
    func contentSecurityPolicyBlocksInjectedScripts() async throws {
        let harness = try await SovendusHarness.make()
        let tab = try await HeadlessChromium.shared().newTab()
        for csp in [false, true] {
            var builder = SovendusPageBuilder(
                configuration: harness.emulator.providerConfiguration(baseURL: harness.base), integrationVersion: "1.0.0")
            builder.includesContentSecurityPolicy = csp
            let page = try builder.page(order: SovendusFixtures.order, consumer: nil, platform: .web, now: SovendusHarness.now)
            // What an attacker who got markup into the page would add; the encoder never lets values do this.
            let tampered = page.html.replacingOccurrences(
                of: "<div id=\"sovendus-voucher-banner\"></div>",
                with:
                    "<div id=\"sovendus-voucher-banner\"></div><script>window.__inline = 1;</script><img id=\"probe\" src=\"data:,x\" onerror=\"window.__handler = 1\">"
            )
            #expect(tampered != page.html)
            try await tab.navigate(to: harness.base.appendingPathComponent(harness.emulator.hostPage(tampered)))
            #expect(
                try await tab.waitFor("document.getElementById('sovendus-voucher-button') !== null"),
                "the page's own scripts ran (CSP \(csp))")
            // The broken image has failed to load once `complete` is true, so its handler had its chance.
            #expect(try await tab.waitFor("document.getElementById('probe').complete"))
            let ran: [Bool] = try await tab.evaluate("[window.__inline === 1, window.__handler === 1]")
            #expect(ran == (csp ? [false, false] : [true, true]), "with CSP \(csp)")
            let source: String = try await tab.evaluate("window.sovIframes[0].trafficSourceNumber")
            #expect(source == "1234")
            // Sovendus' hasConsent is a boolean, false unless the app says the consumer agreed.
            let consent: [String] = try await tab.evaluate(
                "window.sovIframes.map(function (e) { return typeof e.hasConsent + ':' + e.hasConsent; })")
            #expect(consent.allSatisfy { $0 == "boolean:false" }, "\(consent)")
        }
        await tab.close()
        await harness.stop()
    }

    @Test("hasConsent: true reaches every sovIframes entry as a boolean (Sovendus' full functionality)")
    func consentReachesThePage() async throws {
        let harness = try await SovendusHarness.make()
        let page = try harness.sovendus.bannerPage(for: SovendusFixtures.order, consumer: nil, platform: .ios, hasConsent: true)
        let tab = try await HeadlessChromium.shared().newTab()
        try await tab.addScriptOnNewDocument(nativeStubs)
        try await tab.navigate(to: harness.base.appendingPathComponent(harness.emulator.hostPage(page.html)))
        #expect(try await tab.waitFor("document.getElementById('sovendus-voucher-button') !== null"))
        let consent: [String] = try await tab.evaluate(
            "window.sovIframes.map(function (e) { return typeof e.hasConsent + ':' + e.hasConsent; })")
        #expect(!consent.isEmpty && consent.allSatisfy { $0 == "boolean:true" }, "\(consent)")
        await tab.close()
        await harness.stop()
    }

    @Test("Messages posted from an untrusted origin are not forwarded to the native side")
    func untrustedOriginsAreIgnored() async throws {
        let harness = try await SovendusHarness.make()
        let page = try harness.sovendus.bannerPage(for: SovendusFixtures.order, consumer: nil, platform: .ios)
        let tab = try await HeadlessChromium.shared().newTab()
        try await tab.addScriptOnNewDocument(nativeStubs)
        try await tab.navigate(to: harness.base.appendingPathComponent(harness.emulator.hostPage(page.html)))
        #expect(try await tab.waitFor("document.getElementById('sovendus-voucher-button') !== null"))
        // A message event as a foreign frame's would arrive: same shape, another origin.
        _ = try await tab.evaluate(
            """
            (function () {
              window.dispatchEvent(new MessageEvent("message", { origin: "https://attacker.test",
                data: { channel: "sovendus:integration", payload: { action: "openInNativeBrowser", url: "https://attacker.test/x" } } }));
              window.dispatchEvent(new MessageEvent("message", { origin: window.location.origin,
                data: { channel: "sovendus:integration", payload: { action: "openInNativeBrowser", url: "https://vouchers.sovendus.test/ok" } } }));
              return true;
            })()
            """, as: Bool.self
        )
        #expect(try await tab.waitFor("window.__native.some(function (m) { return m.body.type === 'openUrl'; })"))
        let urls: [String] = try await tab.evaluate(
            "window.__native.filter(function (m) { return m.body.type === 'openUrl'; }).map(function (m) { return m.body.value; })")
        #expect(urls == ["https://vouchers.sovendus.test/ok"])
        await tab.close()
        await harness.stop()
    }

    @Test("No hostile value executes, and each arrives in sovIframes and sovConsumer exactly as given, with the encoder alone (no CSP)")
    func hostileValuesStayInert() async throws {
        let harness = try await SovendusHarness.make()
        var builder = SovendusPageBuilder(
            configuration: harness.emulator.providerConfiguration(baseURL: harness.base), integrationVersion: "1.0.0")
        builder.includesContentSecurityPolicy = false
        let tab = try await HeadlessChromium.shared().newTab()
        let corpus = SovendusHostileCorpus.values
        #expect(corpus.count >= 50)
        for (index, value) in corpus.enumerated() {
            // An order id may not be empty; every other field takes the value as it is.
            let orderID = value.isEmpty ? "order-\(index)" : value
            let order = SovendusOrder(id: orderID, netValue: 12, currency: "EUR", couponCode: value, sessionID: value)
            let consumer = SovendusConsumer(
                firstName: value, lastName: value, email: value, phone: value, street: value, streetNumber: value, zipCode: value,
                city: value
            )
            let page = try builder.page(order: order, consumer: consumer, platform: .web, now: SovendusHarness.now)
            let url = harness.base.appendingPathComponent(harness.emulator.hostPage(page.html))
            try await tab.navigate(to: url)
            #expect(try await tab.waitFor("document.getElementById('sovendus-voucher-button') !== null"), "value \(index) broke the page")
            let state: PageState = try await tab.evaluate(
                """
                { marker: window.__engageMarker === undefined ? null : String(window.__engageMarker),
                  injected: document.querySelectorAll('[data-engage-injected]').length,
                  iframes: window.sovIframes.map(function (e) { var copy = Object.assign({}, e); delete copy.hasConsent; return copy; }),
                  consumer: window.sovConsumer }
                """
            )
            #expect(state.marker == nil, "value \(index) executed")
            #expect(state.injected == 0, "value \(index) injected markup")
            #expect(state.iframes.count == 1)
            let iframe = state.iframes.first ?? [:]
            #expect(iframe["orderId"] == orderID, "value \(index) changed in sovIframes.orderId")
            for key in ["sessionId", "usedCouponCode"] {
                #expect(iframe[key] == value, "value \(index) changed in sovIframes.\(key)")
            }
            for key in [
                "consumerFirstName", "consumerLastName", "consumerEmail", "consumerPhone", "consumerStreet", "consumerStreetNumber",
                "consumerZipcode", "consumerCity",
            ] {
                #expect(state.consumer[key] == value, "value \(index) changed in sovConsumer.\(key)")
            }
        }
        await tab.close()
        await harness.stop()
    }

    struct PageState: Decodable {
        var marker: String?
        var injected: Int
        /// Decoding as `[String: String]` also checks that every value is a string.
        var iframes: [[String: String]]
        var consumer: [String: String]
    }
}
