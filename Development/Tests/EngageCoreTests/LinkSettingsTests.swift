@_spi(EngageProvider) @testable import EngageCore
import EngageTestTraits
import Foundation
import Testing

@Suite("Link routes: which URLs belong to which provider", .bounded)
struct LinkSettingsTests {
    let settings = LinkSettings(routes: [
        LinkRoute(provider: "warply", destination: .campaign, template: "https://Offers.Example.com/campaigns/{id}/index.html"),
        LinkRoute(provider: "youll", destination: .content, template: "exampleapp://content/{id}"),
        LinkRoute(provider: "explore", destination: .merchant, template: "https://offers.example.com/m-{id}"),
    ])

    private func url(_ text: String) throws -> URL { try #require(URL(string: text)) }

    @Test("a URL matching a template is that provider's link, with its id and query items")
    func matches() throws {
        let campaign = try #require(
            settings.link(for: try url("HTTPS://offers.example.com/campaigns/d7b8be1d/index.html?src=mail&src=push")))
        #expect(campaign.provider == "warply" && campaign.destination == .campaign && campaign.identifier == "d7b8be1d")
        #expect(campaign.parameters == ["src": "push"] && campaign.origin == .url)

        let content = try #require(settings.link(for: try url("exampleapp://content/c%20101")))
        #expect(content.provider == "youll" && content.destination == .content && content.identifier == "c 101")

        let merchant = try #require(settings.link(for: try url("https://offers.example.com/m-42")))
        #expect(merchant.provider == "explore" && merchant.identifier == "42")
    }

    @Test("another scheme, host, path, an empty or slashed id, credentials or control characters: no link")
    func refuses() throws {
        for text in [
            "http://offers.example.com/campaigns/1/index.html",  // another scheme
            "https://offers.example.com.evil.com/campaigns/1/index.html",  // another host
            "https://offers.example.com/campaigns//index.html",  // empty id
            "https://offers.example.com/campaigns/a/b/index.html",  // two segments
            "https://offers.example.com/campaigns/a%2Fb/index.html",  // a slash, encoded
            "https://offers.example.com/campaigns/a%0Ab/index.html",  // a control character
            "https://user:pw@offers.example.com/campaigns/1/index.html",  // credentials
            "https://offers.example.com/campaigns/1/index.htm",
            "exampleapp://content/",
            "otherapp://content/1",
            "https://offers.example.com/m-",
        ] {
            #expect(settings.link(for: try url(text)) == nil, "\(text)")
        }
        let long = String(repeating: "a", count: 257)
        #expect(settings.link(for: try url("exampleapp://content/\(long)")) == nil)
        #expect(settings.link(for: try url("exampleapp://content/\(long.dropLast())")) != nil)
    }

    @Test("the first route that matches wins")
    func firstRouteWins() throws {
        let overlapping = LinkSettings(routes: [
            LinkRoute(provider: "youll", destination: .content, template: "exampleapp://item/{id}"),
            LinkRoute(provider: "warply", destination: .coupon, template: "exampleapp://item/{id}"),
        ])
        #expect(overlapping.link(for: try url("exampleapp://item/7"))?.provider == "youll")
    }

    @Test("a template without one {id} in its path, with a query, or a bad provider id is reported")
    func validation() {
        let bad = LinkSettings(routes: [
            LinkRoute(provider: "warply", destination: .campaign, template: "https://offers.example.com/campaigns"),
            LinkRoute(provider: "warply", destination: .campaign, template: "https://offers.example.com/{id}/{id}"),
            LinkRoute(provider: "warply", destination: .campaign, template: "https://offers.example.com/c?id={id}"),
            LinkRoute(provider: "warply", destination: .campaign, template: "offers.example.com/{id}"),
            LinkRoute(provider: "Not Valid", destination: .campaign, template: "https://offers.example.com/{id}"),
            LinkRoute(provider: "warply", destination: "", template: "https://offers.example.com/{id}"),
        ])
        let issues = bad.validationIssues()
        #expect(issues.count == 6, "\(issues)")
        #expect(issues.allSatisfy { $0.hasPrefix("links.routes[") })
        #expect(settings.validationIssues().isEmpty)
        var configuration = EngageConfiguration.preset(.testing, appID: "org.engagekit.links")
        configuration.links = bad
        #expect(throws: EngageError.self) { try configuration.validate() }
    }

    @Test("JSON: links are optional, their fields default, and they survive a round trip")
    func json() throws {
        let plain = try EngageConfiguration.load(json: Data(#"{"appID":"org.engagekit.links"}"#.utf8))
        #expect(plain.links == LinkSettings() && plain.links.notificationKeys == ["url", "link", "deeplink", "deep_link"])
        let routed = try EngageConfiguration.load(
            json: Data(
                #"{"appID":"org.engagekit.links","links":{"routes":[{"provider":"youll","destination":"content","template":"exampleapp://content/{id}"}]}}"#
                    .utf8))
        #expect(routed.links.routes.count == 1 && routed.links.notificationKeys == LinkSettings().notificationKeys)
        let again = try JSONDecoder().decode(EngageConfiguration.self, from: try JSONEncoder().encode(routed))
        #expect(again == routed)
        #expect(throws: EngageError.self) {
            try EngageConfiguration.load(
                json: Data(
                    #"{"appID":"org.engagekit.links","links":{"routes":[{"provider":"youll","destination":"content","template":"x"}]}}"#
                        .utf8))
        }
    }
}
