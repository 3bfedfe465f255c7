@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import Engage
@_spi(EngageProvider) @testable import EngageTesting
import EngageTestTraits
import Foundation
import Testing

@Suite("engage.handle(_:) and handleNotification(_:): links go to the provider that owns them", .bounded)
struct LinkHandlingTests {
    private func start() async throws -> Engage {
        var configuration = testConfiguration()
        configuration.links.routes = [
            LinkRoute(provider: "youll", destination: .content, template: "exampleapp://content/{id}")
        ]
        return try await Engage.start(configuration: configuration, environment: testEnvironment())
    }

    @Test("a routed URL is published as a link and answers true; another URL answers false and publishes nothing")
    func handlesURLs() async throws {
        let engage = try await start()
        defer { Task { await engage.shutdown() } }
        let links = Locked<[EngageLink]>([])
        let subscription = engage.events.subscribe(to: EngageLink.self) { link in links.withLock { $0.append(link) } }
        defer { subscription.cancel() }

        let url = try #require(URL(string: "exampleapp://content/c-101?from=share"))
        #expect(engage.link(for: url)?.identifier == "c-101")
        #expect(engage.handle(url))
        #expect(!engage.handle(try #require(URL(string: "exampleapp://settings"))))
        #expect(!engage.handle(try #require(URL(string: "https://example.com/content/c-101"))))
        #expect(await waitUntil { links.value.count == 1 })
        #expect(
            links.value.first
                == EngageLink(provider: "youll", destination: .content, identifier: "c-101", parameters: ["from": "share"], url: url))
        #expect(links.value.first?.attributes == ["destination": "content", "origin": "url"])
    }

    @Test("a notification carrying a routed link under a configured key is handled; others are the app's")
    func handlesNotifications() async throws {
        let engage = try await start()
        defer { Task { await engage.shutdown() } }
        let links = Locked<[EngageLink]>([])
        let subscription = engage.events.subscribe(to: EngageLink.self) { link in links.withLock { $0.append(link) } }
        defer { subscription.cancel() }

        #expect(engage.handleNotification(["aps": ["alert": "New episode"], "deeplink": "exampleapp://content/c-7"]))
        #expect(!engage.handleNotification(["aps": ["alert": "Hello"]]))
        #expect(!engage.handleNotification(["url": "exampleapp://settings"]))
        #expect(!engage.handleNotification(["url": 42, "link": ["exampleapp://content/c-8"]]))
        #expect(!engage.handleNotification([7: "exampleapp://content/c-9"]))
        #expect(await waitUntil { links.value.count == 1 })
        #expect(links.value.first?.identifier == "c-7" && links.value.first?.origin == .notification)
    }
}
