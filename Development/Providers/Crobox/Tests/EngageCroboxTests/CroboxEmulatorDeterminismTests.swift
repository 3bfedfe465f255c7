import CroboxEmulator
@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageCrobox
@_spi(EngageProvider) import EngageSandbox
import Foundation
import EngageTestTraits
import Testing

@Suite("Crobox emulator: determinism, sessions and badges", .bounded)
struct CroboxEmulatorDeterminismTests {
    /// The same requests, in order, against a fresh host with `seed`: the raw response bodies.
    private func responses(seed: UInt64) async throws -> [Data] {
        try await CroboxEmulatorHarness.run(seed: seed) { harness async throws in
            var bodies: [Data] = []
            for (visitor, products) in [
                (CroboxEmulatorHarness.visitor, ["Product1", "Product2", "Product3"]),
                (CroboxEmulatorHarness.otherVisitor, []),
                (CroboxEmulatorHarness.visitor, ["Product8", "a+b", "Käse"]),
            ] {
                let reply = try await harness.promotions(productIDs: products, visitor: visitor)
                #expect(reply.status == 200)
                bodies.append(reply.body)
            }
            return bodies
        }
    }

    @Test("two hosts with the same seed answer the same bytes; another seed changes the ids only")
    func determinism() async throws {
        let first = try await responses(seed: 42)
        let second = try await responses(seed: 42)
        #expect(first == second)

        let other = try await responses(seed: 43)
        #expect(other != first)
        for (a, b) in zip(first, other) {
            let left = try JSONDecoder().decode(CroboxPromotionsResponse.self, from: a)
            let right = try JSONDecoder().decode(CroboxPromotionsResponse.self, from: b)
            #expect(left.context.sessionID != right.context.sessionID)
            #expect(left.promotions.map(\.productID) == right.promotions.map(\.productID))
            #expect(left.promotions.map(\.content?.config) == right.promotions.map(\.content?.config))
            #expect(Set(left.promotions.map(\.id)).isDisjoint(with: right.promotions.map(\.id)))
        }
    }

    @Test("the JSON has sorted keys and the documented shape")
    func jsonShape() async throws {
        try await CroboxEmulatorHarness.run { harness async throws in
            let reply = try await harness.promotions(productIDs: ["Product7"])
            let text = String(decoding: reply.body, as: UTF8.self)
            #expect(
                text.hasPrefix(
                    #"{"context":{"experiments":[{"control":false,"id":1,"name":"Campaign 1","variantId":1,"variantName":"Crobox"}],"groupName":"Campaign 1 : Crobox","pid":"\#(CroboxEmulatorHarness.visitor)","sid":""#
                ))
            #expect(text.contains(##""component":"mob-app-text-badge.tsx","config":{"fontColor":"#0e1111","text":"Best seller"}"##))
            #expect(text.contains(#""productId":"Product7","variantId":1}]}"#))
        }
    }

    @Test("the session id is stable per visitor and differs between visitors")
    func sessions() async throws {
        try await CroboxEmulatorHarness.run { harness async throws in
            let visitor = CroboxEmulatorHarness.visitor
            let first = try await harness.promotions(productIDs: ["a"], visitor: visitor).promotions().context.sessionID
            let again = try await harness.promotions(productIDs: [], visitor: visitor.lowercased()).promotions().context.sessionID
            let other = try await harness.promotions(productIDs: ["a"], visitor: CroboxEmulatorHarness.otherVisitor)
                .promotions().context.sessionID
            #expect(first == again)
            #expect(first != other)
            #expect(harness.emulator.sessionID(forVisitor: try #require(UUID(uuidString: visitor))) == first)

            harness.emulator.expireSessions()
            let renewed = try await harness.promotions(productIDs: ["a"], visitor: visitor).promotions().context.sessionID
            #expect(renewed != first)

            harness.emulator.reset()
            #expect(harness.emulator.promotionRequests.isEmpty)
            let afterReset = try await harness.promotions(productIDs: ["a"], visitor: visitor).promotions().context.sessionID
            #expect(afterReset == first)
        }
    }

    @Test("a control-group campaign answers promotions without content")
    func controlGroup() async throws {
        let emulator = CroboxEmulator(configuration: .init(campaigns: CroboxEmulator.Configuration.controlGroupCampaigns))
        try await CroboxEmulatorHarness.run(emulator) { harness async throws in
            for products in [[], ["Product1", "Product3"]] {
                let response = try await harness.promotions(productIDs: products).promotions()
                #expect(response.context.campaigns.map(\.isControl) == [true])
                #expect(response.context.groupName == "Campaign 1 : Control")
                #expect(!response.promotions.isEmpty)
                #expect(response.promotions.allSatisfy { $0.content == nil && $0.variantID == 2 })
            }
        }
    }

    @Test("no campaign: no promotions and no group name; an empty catalogue: no content")
    func emptyConfiguration() async throws {
        try await CroboxEmulatorHarness.run(CroboxEmulator(configuration: .init(campaigns: []))) { harness async throws in
            let response = try await harness.promotions(productIDs: ["Product1"]).promotions()
            #expect(response.promotions.isEmpty)
            #expect(response.context.campaigns.isEmpty)
            #expect(response.context.groupName == nil)
        }
        try await CroboxEmulatorHarness.run(CroboxEmulator(configuration: .init(catalogue: []))) { harness async throws in
            let response = try await harness.promotions(productIDs: ["Product1"]).promotions()
            #expect(response.promotions.map(\.content) == [nil])
        }
    }

    @Test("several campaigns: each promotion belongs to one of them, chosen by product id")
    func severalCampaigns() async throws {
        let campaigns = [
            CroboxEmulator.Campaign(id: 1, name: "Badges", variantID: 11, variantName: "Crobox", isControl: false),
            CroboxEmulator.Campaign(id: 2, name: "Urgency", variantID: 21, variantName: "Control", isControl: true),
        ]
        let emulator = CroboxEmulator(configuration: .init(campaigns: campaigns))
        try await CroboxEmulatorHarness.run(emulator) { harness async throws in
            let ids = (1...12).map { "Product\($0)" }
            let response = try await harness.promotions(productIDs: ids).promotions()
            #expect(response.context.groupName == "Badges : Crobox, Urgency : Control")
            for promotion in response.promotions {
                let campaign = try #require(harness.emulator.campaign(forProductID: promotion.productID ?? ""))
                #expect(promotion.campaignID == campaign.id)
                #expect(promotion.variantID == campaign.variantID)
                #expect((promotion.content == nil) == campaign.isControl)
            }
            #expect(Set(response.promotions.map(\.campaignID)) == [1, 2])
        }
    }

    @Test("every kind of content is handed out, to fixed product ids")
    func everyComponentKind() async throws {
        try await CroboxEmulatorHarness.run { harness async throws in
            let ids = ["Product7", "Product5", "Product1", "Product3", "Product6", "Product8"]
            let promotions = try await harness.promotions(productIDs: ids).promotions().promotions
            try #require(promotions.count == ids.count)
            let contents = try promotions.map { try #require($0.content) }

            // Product7: a text badge with #RRGGBB.
            #expect(contents[0].typedConfig == .textBadge(CroboxTextBadge(text: "Best seller", fontColor: "#0e1111")))
            #expect(contents[0].textBadge?.fontRGBA == RGBAColor(red: 0x0E, green: 0x11, blue: 0x11, alpha: 255))
            // Product5: a text badge with an #AARRGGBB background.
            let background = try #require(contents[1].textBadge)
            #expect(contents[1].componentName == CroboxComponent.textBadge)
            #expect(background.backgroundColor == "#E6D32F2F")
            #expect(background.backgroundRGBA == RGBAColor(red: 0xD3, green: 0x2F, blue: 0x2F, alpha: 0xE6))
            // Product1: a text badge with an rgba(...) border.
            let border = try #require(contents[2].textBadge)
            #expect(border.borderColor == "rgba(204, 204, 204, 0.5)")
            #expect(border.borderRGBA == RGBAColor(red: 204, green: 204, blue: 204, alpha: 128))
            // Product3: an image badge.
            #expect(
                contents[3].typedConfig
                    == .imageBadge(CroboxImageBadge(image: "https://cdn.crobox.example/badges/free-shipping.png", altText: "Free shipping"))
            )
            // Product6: secondary messaging.
            guard case .secondaryMessaging(let message) = contents[4].typedConfig else {
                Issue.record("expected secondary messaging, got \(contents[4].typedConfig)")
                return
            }
            #expect(message.fontRGBA != nil)
            // Product8: a component the SDKs do not know, readable as an image badge by its keys.
            #expect(contents[5].componentName == "component1.tsx")
            guard case .unknown(let name, _) = contents[5].typedConfig else {
                Issue.record("expected an unknown component, got \(contents[5].typedConfig)")
                return
            }
            #expect(name == "component1.tsx")
            #expect(contents[5].imageBadge?.altText == "New arrival")

            // Together they cover the whole default catalogue, and the public lookup agrees.
            let catalogue = CroboxEmulator.Configuration.defaultCatalogue
            #expect(Set(ids.compactMap { harness.emulator.message(forProductID: $0) }) == Set(catalogue))
            for (id, content) in zip(ids, contents) {
                #expect(harness.emulator.message(forProductID: id)?.config == content.config)
            }
        }
    }

    @Test("message ids identify the message; promotion ids are unique UUIDs")
    func identifiers() async throws {
        try await CroboxEmulatorHarness.run { harness async throws in
            // Product7 and Product12 get the same message; Product5 another one.
            let promotions = try await harness.promotions(productIDs: ["Product7", "Product12", "Product5"]).promotions().promotions
            try #require(promotions.count == 3)
            #expect(promotions[0].content?.messageID == promotions[1].content?.messageID)
            #expect(promotions[0].content?.messageID != promotions[2].content?.messageID)
            #expect(Set(promotions.map(\.id)).count == 3)
            // A new page view gets new promotion ids for the same products, with the same messages.
            var items = CroboxEmulatorHarness.commonItems() + [("vpid", "1")]
            items[2] = ("vid", UUID(uuid: (1, 2, 3, 4, 5, 6, 0x47, 8, 0x89, 10, 11, 12, 13, 14, 15, 16)).uuidString)
            let next = try await harness.promotions(
                CroboxWire.encodeQuery(items), body: CroboxWire.promotionsBody(productIDs: ["Product7", "Product12", "Product5"])
            ).promotions().promotions
            #expect(next.map(\.content?.messageID) == promotions.map(\.content?.messageID))
            #expect(Set(next.map(\.id)).isDisjoint(with: promotions.map(\.id)))
        }
    }
}
