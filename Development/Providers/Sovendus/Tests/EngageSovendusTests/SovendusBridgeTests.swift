@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageSovendus
import Foundation
import EngageTestTraits
import Testing

@Suite("Sovendus bridge and navigation policy", .bounded)
struct SovendusBridgeTests {
    static let voucher = "https://vouchers.sovendus.test/claim?order=1"

    @Test("Every dictionary shape a web view hands over is read")
    func dictionaries() throws {
        let cases: [([String: Any], SovendusBridgeMessage)] = [
            (["type": "height", "value": 420], .height(420)),
            (["type": "height", "value": 420.5], .height(420.5)),
            (["type": "height", "value": "512"], .height(512)),
            (["type": "height", "value": NSNumber(value: 300)], .height(300)),
            (["type": "openUrl", "value": Self.voucher], .openURL(URL(string: Self.voucher)!)),
        ]
        for (body, expected) in cases {
            #expect(try SovendusBridge.message(from: body) == expected)
            #expect(try SovendusBridge.message(from: body as [AnyHashable: Any]) == expected)
        }
    }

    @Test(
        "Strings: Android's JSON and React Native's prefixed forms",
        arguments: [
            (#"{"type":"height","value":420}"#, SovendusBridgeMessage.height(420)),
            (#"{"type":"openUrl","value":"https://vouchers.sovendus.test/claim?order=1"}"#, .openURL(URL(string: voucher)!)),
            ("height420", .height(420)),
            ("height 733.5", .height(733.5)),
            ("openUrl" + voucher, .openURL(URL(string: voucher)!)),
        ]
    )
    func strings(body: String, expected: SovendusBridgeMessage) throws {
        #expect(try SovendusBridge.message(from: body) == expected)
        #expect(try SovendusBridge.message(from: Data(body.utf8)) == expected)
    }

    @Test("Heights at or below the minimum are ignored", arguments: [0.0, 1, 60, 99.9, 100])
    func smallHeights(height: Double) throws {
        #expect(try SovendusBridge.message(from: ["type": "height", "value": height]) == nil)
        #expect(try SovendusBridge.message(from: "height\(height)") == nil)
    }

    @Test("Refused: non-http(s) URLs, broken heights and unknown shapes")
    func refused() {
        let bodies: [[String: Any]] = [
            ["type": "openUrl", "value": "javascript:alert(1)"],
            ["type": "openUrl", "value": "JAVASCRIPT:alert(1)"],
            ["type": "openUrl", "value": "data:text/html,<script>alert(1)</script>"],
            ["type": "openUrl", "value": "file:///etc/passwd"],
            ["type": "openUrl", "value": "intent://scan/#Intent;scheme=zxing;end"],
            ["type": "openUrl", "value": "myapp://settings"],
            ["type": "openUrl", "value": "about:blank"],
            ["type": "openUrl", "value": "https://"],
            ["type": "openUrl", "value": "//vouchers.sovendus.test/claim"],
            ["type": "openUrl", "value": "https://x.test/" + String(repeating: "a", count: 9_000)],
            ["type": "openUrl", "value": 42],
            ["type": "height", "value": Double.nan],
            ["type": "height", "value": Double.infinity],
            ["type": "height", "value": -5.0],
            ["type": "height", "value": 1e9],
            ["type": "height", "value": "tall"],
            ["type": "height", "value": [1, 2]],
            ["type": "height", "value": true],
            ["type": "resize", "value": 300],
            ["value": 300],
            ["type": "height"],
        ]
        for body in bodies {
            #expect {
                _ = try SovendusBridge.message(from: body)
            } throws: { error in
                (error as? EngageError)?.code == .sovendusRejectedMessage
            }
        }
    }

    @Test(
        "Refused strings and other types",
        arguments: [
            "", "{", "{\"type\":1}", "[1,2]", "width300", "heightNaN", "heightinf", "openUrljavascript:alert(1)",
            String(repeating: "h", count: 20_000),
        ])
    func refusedStrings(body: String) {
        #expect(throws: EngageError.self) { try SovendusBridge.message(from: body) }
    }

    @Test("JSON booleans are not heights, on every platform's Foundation")
    func booleanHeights() throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(#"{"type":"height","value":true}"#.utf8)) as? [String: Any])
        // Apple's Foundation hands a JSON true over as an NSNumber 1 (ignored as too small), others as a Bool (refused).
        do {
            #expect(try SovendusBridge.message(from: object) == nil)
        } catch {
            #expect(error.code == .sovendusRejectedMessage)
        }
    }

    @Test("A refusal names the scheme, never the URL")
    func refusalKeepsURLPrivate() {
        do {
            _ = try SovendusBridge.message(from: ["type": "openUrl", "value": "mailto:eva@example.com"])
            Issue.record("mailto: was accepted")
        } catch {
            #expect(error.message.contains("'mailto'"))
            #expect(!error.message.contains("eva@example.com"))
        }
    }

    @Test("receive calls the matching handler on the main actor, and onRejected for a refusal")
    @MainActor
    func receiveCallsHandlers() {
        let log = Locked<[String]>([])
        let bridge = SovendusBridge(
            minimumHeight: 100, onHeight: { height in log.withLock { $0.append("height \(Int(height))") } },
            openURL: { url in log.withLock { $0.append("open \(url.absoluteString)") } },
            onRejected: { error in log.withLock { $0.append("rejected \(error.code.rawValue)") } }
        )
        #expect(bridge.receive(["type": "height", "value": 60]) == nil)
        #expect(bridge.receive(["type": "height", "value": 420]) == .height(420))
        #expect(bridge.receive("openUrl" + Self.voucher) == .openURL(URL(string: Self.voucher)!))
        #expect(bridge.receive(["type": "openUrl", "value": "javascript:alert(1)"]) == nil)
        #expect(bridge.receive(42) == nil)
        #expect(
            log.value == ["height 420", "open \(Self.voucher)", "rejected sovendus.rejectedMessage", "rejected sovendus.rejectedMessage"])
    }

    // MARK: Navigation

    static let page = URL(string: "https://api.sovendus.com/")!

    @Test(
        "The navigation table: first matching rule wins",
        arguments: [
            ("about:blank", SovendusNavigationPolicy.Trigger.other, SovendusNavigationPolicy.Decision.allow),
            ("about:blank", .userAction, .allow),
            ("about:srcdoc", .other, .cancel),
            ("https://api.sovendus.com/", .other, .allow),
            ("https://api.sovendus.com/#top", .other, .allow),
            ("https://api.sovendus.com/", .userAction, .openExternally(URL(string: "https://api.sovendus.com/")!)),
            ("https://api.sovendus.com/banner/api/banner", .other, .allow),
            ("https://api.sovendus.com/banner/api/banner?ts=1234", .other, .allow),
            ("https://other.sovendus.com/banner/api/banner", .userAction, .allow),
            ("https://sovendus.com/app-list", .other, .allow),
            ("https://attacker.test/banner/api/banner", .other, .cancel),
            ("https://attacker.test/app-list", .userAction, .openExternally(URL(string: "https://attacker.test/app-list")!)),
            ("https://sovendus.com.attacker.test/app-list", .other, .cancel),
            ("https://api.sovendus.com/app-listing", .other, .cancel),
            ("https://api.sovendus.com/banner/api/banner/x", .other, .cancel),
            ("https://api.sovendus.com/app-list", .other, .allow),
            ("https://api.sovendus.com/app-list/de/42", .other, .allow),
            ("https://api.sovendus.com/apps/app-list", .other, .cancel),
            ("https://shop.example/voucher", .userAction, .openExternally(URL(string: "https://shop.example/voucher")!)),
            ("http://shop.example/voucher", .userAction, .openExternally(URL(string: "http://shop.example/voucher")!)),
            ("https://shop.example/voucher", .other, .cancel),
            ("javascript:alert(1)", .userAction, .cancel),
            ("data:text/html,hi", .userAction, .cancel),
            ("file:///etc/passwd", .userAction, .cancel),
            ("intent://scan/#Intent;end", .userAction, .cancel),
            ("myapp://open", .userAction, .cancel),
            ("blob:https://api.sovendus.com/123", .other, .cancel),
            ("https:///nohost", .userAction, .cancel),
        ]
    )
    func navigation(url: String, trigger: SovendusNavigationPolicy.Trigger, expected: SovendusNavigationPolicy.Decision) {
        let policy = SovendusNavigationPolicy(pageURL: Self.page)
        #expect(policy.decision(for: URL(string: url), trigger: trigger) == expected)
    }

    @Test("A navigation without a URL is cancelled")
    func navigationWithoutURL() {
        #expect(SovendusNavigationPolicy(pageURL: Self.page).decision(for: nil, trigger: .userAction) == .cancel)
    }
}
