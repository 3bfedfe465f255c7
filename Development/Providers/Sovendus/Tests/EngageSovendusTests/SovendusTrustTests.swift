@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) import EngageSandbox
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageSovendus
import Foundation
import EngageTestTraits
import Testing

/// Who the banner trusts: the script's registrable domain (public-suffix aware), frames the web view
/// names, and a script URL that is not plain HTTP.
@Suite("Sovendus: trust rules", .bounded)
struct SovendusTrustTests {
    @Test(
        "the trusted domain is the registrable domain, never a public suffix",
        arguments: [
            ("api.sovendus.com", "sovendus.com"),
            ("api.sovendus.co.uk", "sovendus.co.uk"),
            ("cdn.eu.sovendus.com.au", "sovendus.com.au"),
            ("banner.sovendus.co.jp", "sovendus.co.jp"),
            ("api.sovendus.de", "sovendus.de"),
            ("sovendus.de", "sovendus.de"),
            ("shop.github.io", "shop.github.io"),
        ])
    func registrableDomain(host: String, expected: String) {
        #expect(SovendusConfiguration.parentDomain(of: host) == expected)
    }

    @Test(
        "a public suffix, an IP address or a single label trusts only itself",
        arguments: ["co.uk", "com.au", "github.io", "127.0.0.1", "localhost", "a..b"])
    func noParentDomain(host: String) {
        #expect(SovendusConfiguration.parentDomain(of: host) == nil)
    }

    @Test("a page on api.sovendus.co.uk never lets another British site's frame in")
    func navigationUnderACountrySuffix() throws {
        let policy = SovendusNavigationPolicy(pageURL: try #require(URL(string: "https://api.sovendus.co.uk/")))
        let evil = try #require(URL(string: "https://evil.co.uk/banner/api/banner"))
        let sovendus = try #require(URL(string: "https://www.sovendus.co.uk/banner/api/banner"))
        #expect(policy.decision(for: evil, trigger: .other) == .cancel)
        #expect(policy.decision(for: sovendus, trigger: .other) == .allow)
    }

    @MainActor
    @Test("the bridge acts only on messages from the page or Sovendus' https frames")
    func bridgeChecksTheSender() {
        let heights = Locked<[Double]>([])
        let refused = Locked(0)
        let bridge = SovendusBridge(
            minimumHeight: 10, trust: SovendusFrameTrust(pageOrigin: "https://api.sovendus.com", domain: "sovendus.com"),
            onHeight: { height in heights.withLock { $0.append(height) } }, openURL: { _ in },
            onRejected: { _ in refused.withLock { $0 += 1 } }
        )
        let message: [String: Any] = ["type": "height", "value": 200]
        bridge.receive(message, from: SovendusMessageSource(isMainFrame: true, origin: "https://api.sovendus.com"))
        bridge.receive(message, from: SovendusMessageSource(isMainFrame: false, origin: "https://banner.sovendus.com"))
        bridge.receive(message, from: SovendusMessageSource(isMainFrame: false, origin: "https://banner.sovendus.com:8443"))
        // Refused: a third-party frame, plain http on the domain, a look-alike, a main frame elsewhere.
        bridge.receive(message, from: SovendusMessageSource(isMainFrame: false, origin: "https://ads.example.com"))
        bridge.receive(message, from: SovendusMessageSource(isMainFrame: false, origin: "http://banner.sovendus.com"))
        bridge.receive(message, from: SovendusMessageSource(isMainFrame: false, origin: "https://evilsovendus.com"))
        bridge.receive(message, from: SovendusMessageSource(isMainFrame: true, origin: "https://evil.example"))
        #expect(heights.value == [200, 200, 200])
        #expect(refused.value == 4)

        let untrusting = SovendusBridge(
            minimumHeight: 10, onHeight: { height in heights.withLock { $0.append(height) } }, openURL: { _ in })
        #expect(untrusting.receive(message, from: SovendusMessageSource(isMainFrame: false, origin: "https://banner.sovendus.com")) == nil)
        #expect(
            untrusting.receive(message, from: SovendusMessageSource(isMainFrame: true, origin: "https://api.sovendus.com")) == .height(200))
    }

    @MainActor
    @Test("the provider's bridge trusts the configured script's origin and domain")
    func providerBridge() async throws {
        let harness = try await SovendusHarness.make()
        defer { Task { await harness.stop() } }
        let bridge = harness.sovendus.bridge(onHeight: { _ in }, openURL: { _ in })
        let origin = "http://127.0.0.1:\(harness.base.port ?? 80)"
        #expect(bridge.trust?.pageOrigin == origin)
        #expect(
            bridge.receive(["type": "height", "value": 300], from: SovendusMessageSource(isMainFrame: true, origin: origin)) == .height(300)
        )
        #expect(
            bridge.receive(
                ["type": "height", "value": 300], from: SovendusMessageSource(isMainFrame: false, origin: "https://ads.example.com")) == nil
        )
    }

    @Test("an http script URL is refused unless insecure HTTP is allowed (loopback excepted)")
    func plainHTTPScript() async throws {
        func start(allowsInsecureHTTP: Bool) async -> EngageError? {
            var configuration = EngageConfiguration.preset(.testing, appID: "org.engagekit.sovendus-trust")
            configuration.network.allowsInsecureHTTP = allowsInsecureHTTP
            let https = URL(string: "https://api.sovendus.com")!
            let sovendus = SovendusConfiguration(
                trafficSourceNumber: 1, trafficMediumNumber: 1, trafficMediumPublicID: UUID(),
                scriptURL: URL(string: "http://api.sovendus.com/sovabo/common/js/flexibleIframe.js")!, redemptionBaseURL: https,
                telemetryBaseURL: https
            )
            do {
                try configuration.setProvider(.sovendus, sovendus)
                let registry = try ProviderRegistry(configuration: configuration)
                try await registry.register(.provider(SovendusProvider.self, from: configuration))
                let failure = await registry.start().failures[.sovendus]
                await registry.shutdown()
                return failure
            } catch {
                return error
            }
        }
        let refused = await start(allowsInsecureHTTP: false)
        #expect(refused != nil)
        #expect("\(refused.map { String(describing: $0) } ?? "")".contains("Plain HTTP"))
        #expect(await start(allowsInsecureHTTP: true) == nil)
    }
}
