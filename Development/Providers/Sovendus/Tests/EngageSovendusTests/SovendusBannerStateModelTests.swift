@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageSovendus
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import Observation
import EngageTestTraits
import Testing

/// `sovendus.bannerState(for:openURL:)`: one banner's loading / success / error phase, its height and
/// the last link opened, fed by the bridge the web view talks to.
@MainActor
@Suite(.bounded) struct SovendusBannerStateModelTests {
    @Test func theBridgeDrivesThePhaseTheHeightAndTheLinks() async throws {
        guard #available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *) else { return }  // Observation
        let harness = try await SovendusHarness.make()
        defer { Task { await harness.stop() } }
        let page = try harness.sovendus.bannerPage(for: SovendusFixtures.order, consumer: try SovendusFixtures.consumer(), platform: .ios)
        let opened = Locked<[URL]>([])
        let banner = harness.sovendus.bannerState(for: page) { url in opened.withLock { $0.append(url) } }
        #expect(banner.phase == .loading && banner.height == page.initialHeight && banner.lastOpenedURL == nil)
        #expect(banner.page.html == page.html)

        // A height at or below the minimum (the page has not laid out yet) changes nothing.
        banner.bridge.receive(["type": "height", "value": 10])
        #expect(banner.phase == .loading && banner.height == page.initialHeight)

        // The first real height shows the banner; observers of the phase are told.
        let changes = TestCounter()
        withObservationTracking {
            _ = banner.phase
        } onChange: {
            changes.increment()
        }
        banner.bridge.receive(["type": "height", "value": 420])
        #expect(banner.phase == .success && banner.height == 420 && changes.count == 1)
        banner.bridge.receive("height512")  // React Native's form
        #expect(banner.height == 512)

        // A checked link is opened and remembered; a refused one is neither.
        let deal = try #require(URL(string: "https://shop.example/deal"))
        banner.bridge.receive(["type": "openUrl", "value": deal.absoluteString])
        banner.bridge.receive(["type": "openUrl", "value": "javascript:alert(1)"])
        #expect(banner.lastOpenedURL == deal && opened.value == [deal])
    }

    @Test("the iOS 16 form: updates delivers the banner after each change, and the height alone wakes no phase observer")
    func updatesFollowTheBanner() async throws {
        let harness = try await SovendusHarness.make()
        defer { Task { await harness.stop() } }
        let page = try harness.sovendus.bannerPage(for: SovendusFixtures.order, platform: .ios)
        let banner = harness.sovendus.bannerState(for: page) { _ in }
        var updates = banner.updates.makeAsyncIterator()
        let first = await updates.next()
        #expect(first?.phase == .loading && first?.height == page.initialHeight && first?.lastOpenedURL == nil)
        banner.bridge.receive(["type": "height", "value": 420])
        let shown = await updates.next()
        #expect(shown?.phase == .success && shown?.height == 420 && shown == banner.snapshot)

        if #available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *) {
            let phaseChanges = TestCounter()
            withObservationTracking {
                _ = banner.phase
            } onChange: {
                _ = phaseChanges.increment()
            }
            banner.bridge.receive(["type": "height", "value": 512])
            #expect(phaseChanges.count == 0 && banner.height == 512)
        }
        #expect(await updates.next()?.height == 512)
    }

    @Test func aPageThatDoesNotLoadIsAFailureWithItsCause() async throws {
        let harness = try await SovendusHarness.make()
        defer { Task { await harness.stop() } }
        let page = try harness.sovendus.bannerPage(for: SovendusFixtures.order, platform: .ios)
        let banner = harness.sovendus.bannerState(for: page) { _ in }
        struct Offline: Error {}
        banner.loadFailed(Offline())
        guard case let .error(error) = banner.phase else {
            Issue.record("expected a failure, got \(banner.phase)")
            return
        }
        #expect(error.code == .network && error.providerID == .sovendus && error.underlyingError is Offline)
        #expect(!error.localizedDescription.isEmpty)
    }
}
