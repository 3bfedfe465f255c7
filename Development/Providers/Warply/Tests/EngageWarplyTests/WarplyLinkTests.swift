@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) @testable import EngageTesting
@_spi(EngageProvider) @testable import EngageWarply
import EngageEmulators
import EngageTestTraits
import Foundation
import Testing
import WarplyEmulator

/// `engage.handle(_:)` with the sandbox's configuration: the links to campaign pages the Warply
/// emulator hands out are Warply's campaign links, and a URL no route matches is the app's.
@Suite("Warply: links to the emulator's campaign pages are handled", .bounded)
struct WarplyLinkTests {
    @Test("a campaign page link the emulator produced is Warply's, with its session UUID; another URL is not")
    func campaignLinksAreHandled() async throws {
        let harness = try await WarplyHarness()
        defer { Task { await harness.stop() } }
        var configuration = try harness.configuration(harness.warplyConfiguration())
        try WarplySandboxSet.configure(&configuration) { _ in harness.baseURL }
        let engage = try await Engage.start(
            configuration: configuration, environment: RegistryEnvironment(clock: harness.clock, random: SeededRandomSource(seed: 4)))
        defer { Task { await engage.shutdown() } }
        let warply = try await engage.provider(WarplyProvider.self)
        let links = Locked<[EngageLink]>([])
        let subscription = engage.events.subscribe(to: EngageLink.self) { link in links.withLock { $0.append(link) } }
        defer { subscription.cancel() }

        let campaign = try #require(try await warply.campaigns().first)
        let page = try #require(try await warply.campaignURL(for: campaign))
        #expect(engage.handle(page))
        #expect(!engage.handle(try #require(URL(string: "https://example.com/campaigns/\(campaign.sessionUUID)/index.html"))))
        #expect(!engage.handle(try #require(URL(string: "https://engage-uat.dei.gr/campaigns/\(campaign.sessionUUID)/other.html"))))

        #expect(await waitUntil { links.value.count == 1 })
        let link = try #require(links.value.first)
        #expect(link.provider == .warply && link.destination == .campaign && link.identifier == campaign.sessionUUID)
        #expect(link.origin == .url && link.url == page)
    }
}
