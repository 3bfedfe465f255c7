@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageCrobox
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import EngageTestTraits
import Testing

@Suite("Crobox promotions decoding", .bounded)
struct CroboxDecodingTests {
    static let visitor = "4C4A8E66-4E2B-4A47-9B1C-2E0F1D0D7A11"
    static let session = "0b8d1a3e-7f1c-4f5e-9a47-2d6c9b1e5f20"

    static func document(promotions: String, context: String? = nil) -> Data {
        let context =
            context
            ?? #"{"experiments":[{"id":1,"name":"Campaign 1","variantId":1,"variantName":"Crobox","control":false}],"groupName":"Campaign 1 : Crobox","pid":"\#(visitor)","sid":"\#(session)"}"#
        return Data(#"{"context":\#(context),"promotions":\#(promotions)}"#.utf8)
    }

    static func promotion(product: String = "Product1", component: String, config: String) -> String {
        #"{"id":"\#(UUID().uuidString)","productId":"\#(product)","campaignId":1,"variantId":1,"content":{"id":"\#(UUID().uuidString)","component":"\#(component)","config":\#(config)}}"#
    }

    func decode(_ data: Data) throws -> CroboxPromotionsResponse {
        try JSONDecoder().decode(CroboxPromotionsResponse.self, from: data)
    }

    @Test("hostile variations of a realistic response decode or fail with DecodingError, never trap")
    func hostileVariations() throws {
        let promotions = [
            Self.promotion(
                product: "p1", component: "mob-app-text-badge.tsx",
                config: ##"{"text":"Best seller","fontColor":"#0e1111","backgroundColor":"#80FFCC00"}"##),
            Self.promotion(
                product: "p2", component: "mob-app-image-badge.tsx", config: #"{"image":"https://cdn.example.com/b.png","altText":"Eco"}"#),
        ]
        let document = Self.document(promotions: "[\(promotions.joined(separator: ","))]")
        _ = try decode(document)
        let outcomes = HostileJSON.decodingOutcomes(CroboxPromotionsResponse.self, from: document, seed: 31)
        for case .failure(let error) in outcomes { #expect(error is DecodingError, "\(type(of: error))") }
        #expect(outcomes.contains { (try? $0.get()) == nil })
        let configuration = try JSONEncoder().encode(CroboxConfiguration(containerID: "xlrc9t", locale: "en_US", currency: "EUR"))
        for case .failure(let error) in HostileJSON.decodingOutcomes(CroboxConfiguration.self, from: configuration, seed: 32) {
            #expect(error is DecodingError || error is EngageError, "\(type(of: error))")
        }
    }

    @Test("a realistic response decodes with context, campaigns and every badge kind")
    func realistic() throws {
        let promotions = [
            Self.promotion(
                product: "p1", component: "mob-app-text-badge.tsx",
                config:
                    ##"{"text":"Best seller","fontColor":"#0e1111","backgroundColor":"#80FFCC00","borderColor":"rgba(204, 204, 204, 0.5)"}"##
            ),
            Self.promotion(
                product: "p2", component: "mob-app-image-badge.tsx", config: #"{"image":"https://cdn.example.com/b.png","altText":"Eco"}"#),
            Self.promotion(
                product: "p3", component: "mob-app-secondary-messaging.tsx", config: ##"{"text":"Only 2 left","fontColor":"#ff0000"}"##),
            Self.promotion(
                product: "p4", component: "component1.tsx", config: #"{"image":"https://cdn.example.com/c.png","altText":"Alt"}"#),
        ]
        let response = try decode(Self.document(promotions: "[\(promotions.joined(separator: ","))]"))
        #expect(response.context.visitorID.uuidString == Self.visitor)
        #expect(response.context.sessionID.uuidString.lowercased() == Self.session)
        #expect(
            response.context.campaigns == [CroboxCampaign(id: 1, name: "Campaign 1", variantID: 1, variantName: "Crobox", isControl: false)]
        )
        #expect(response.context.groupName == "Campaign 1 : Crobox")
        #expect(response.promotions.map(\.productID) == ["p1", "p2", "p3", "p4"])

        guard case let .textBadge(text) = try #require(response.promotions[0].content).typedConfig else {
            Issue.record("expected a text badge")
            return
        }
        #expect(text.text == "Best seller")
        #expect(text.fontRGBA == RGBAColor(red: 0x0e, green: 0x11, blue: 0x11, alpha: 255))
        #expect(text.backgroundRGBA == RGBAColor(red: 0xFF, green: 0xCC, blue: 0x00, alpha: 0x80))
        #expect(text.borderRGBA == RGBAColor(red: 204, green: 204, blue: 204, alpha: 128))

        #expect(
            try #require(response.promotions[1].content).typedConfig
                == .imageBadge(CroboxImageBadge(image: "https://cdn.example.com/b.png", altText: "Eco")))
        #expect(
            try #require(response.promotions[2].content).typedConfig
                == .secondaryMessaging(CroboxSecondaryMessaging(text: "Only 2 left", fontColor: "#ff0000")))
        // An unknown component keeps its raw map, and its badge is still readable by keys.
        let unknown = try #require(response.promotions[3].content)
        #expect(
            unknown.typedConfig
                == .unknown(componentName: "component1.tsx", config: ["image": "https://cdn.example.com/c.png", "altText": "Alt"]))
        #expect(unknown.imageBadge == CroboxImageBadge(image: "https://cdn.example.com/c.png", altText: "Alt"))
        #expect(unknown.textBadge == nil)
    }

    @Test(
        "invalid UUIDs are clear decoding errors naming the field",
        arguments: [
            ("pid", #"{"experiments":[],"pid":"not-a-uuid","sid":"\#(session)"}"#, "[]"),
            ("sid", #"{"experiments":[],"pid":"\#(visitor)","sid":"123"}"#, "[]"),
        ])
    func invalidContextUUIDs(field: String, context: String, promotions: String) {
        #expect {
            try JSONDecoder().decode(CroboxPromotionsResponse.self, from: Self.document(promotions: promotions, context: context))
        } throws: { error in
            guard let decodingError = error as? DecodingError else { return false }
            let engageError = EngageError(decodingError: decodingError, providerID: .crobox)
            return engageError.code == .decoding && engageError.message.contains(field)
        }
    }

    @Test(
        "documents without a context fail with decoding errors, never crashes",
        arguments: [#"{"promotions":[]}"#, #"{"context":null,"promotions":[]}"#, #"[]"#])
    func hostile(json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(CroboxPromotionsResponse.self, from: Data(json.utf8)) }
    }

    /// The official SDK reads a campaign's wrong-typed field as its default and a missing content id as
    /// `""`, but loses every promotion for one bad id and a whole `config` for one number; the SDK
    /// failed the whole answer on any of them. Now only what cannot be read is dropped, and counted.
    @Test("one drifted value drops only itself: a bad promotion id, a non-string config value, a wrong-typed campaign field")
    func driftedValuesDropOnlyThemselves() throws {
        let context =
            #"{"experiments":[{"id":"one","name":"C","variantId":1,"variantName":"V","control":"true"},7],"pid":"\#(Self.visitor)","sid":"\#(Self.session)"}"#
        let promotions = #"""
            [{"id":"zzz","campaignId":1,"variantId":1},
             {"id":"\#(Self.session)","campaignId":"2","variantId":1,"productId":42,
              "content":{"component":"x","config":{"text":"Hot","size":7,"style":{"a":1}}}}]
            """#
        let response = try JSONDecoder().decode(
            CroboxPromotionsResponse.self, from: Self.document(promotions: promotions, context: context))
        #expect(response.context.campaigns == [CroboxCampaign(id: 0, name: "C", variantID: 1, variantName: "V", isControl: true)])
        #expect(response.promotions.count == 1 && response.droppedPromotionCount == 1)
        let kept = try #require(response.promotions.first)
        #expect(kept.campaignID == 2 && kept.productID == nil)
        #expect(kept.content?.messageID == "" && kept.content?.config == ["text": "Hot"])
        // The campaign that is not an object, its non-numeric id, the product id, two config values.
        #expect(response.droppedValueCount == 5)
        let loose = #"{"context":{"experiments":"x","pid":"\#(Self.visitor)","sid":"\#(Self.session)"},"promotions":{}}"#
        let empty = try JSONDecoder().decode(CroboxPromotionsResponse.self, from: Data(loose.utf8))
        #expect(empty.context.campaigns.isEmpty && empty.promotions.isEmpty)
    }

    @Test("missing optional fields and a missing config are tolerated")
    func optionalFields() throws {
        let json =
            #"{"context":{"experiments":[],"pid":"\#(Self.visitor)","sid":"\#(Self.session)"},"promotions":[{"id":"\#(Self.session)","campaignId":2,"variantId":3},{"id":"\#(Self.visitor)","campaignId":2,"variantId":3,"content":{"id":"\#(Self.session)","component":"mob-app-text-badge.tsx"}}]}"#
        let response = try decode(Data(json.utf8))
        #expect(response.context.groupName == nil)
        #expect(response.promotions[0].productID == nil)
        #expect(response.promotions[0].content == nil)
        let content = try #require(response.promotions[1].content)
        #expect(content.config.isEmpty)
        // A text badge component without text is kept raw rather than invented.
        #expect(content.typedConfig == .unknown(componentName: "mob-app-text-badge.tsx", config: [:]))
    }

    @Test("a huge promotions array decodes (10 000 entries)")
    func hugeArray() throws {
        let one = Self.promotion(component: "mob-app-text-badge.tsx", config: #"{"text":"x"}"#)
        let data = Self.document(promotions: "[" + Array(repeating: one, count: 10_000).joined(separator: ",") + "]")
        #expect(try decode(data).promotions.count == 10_000)
    }

    @Test("colours: #RRGGBB, #AARRGGBB and rgba(), anything else a clear error")
    func colours() throws {
        #expect(try CroboxColor.parse("#0e1111") == RGBAColor(red: 14, green: 17, blue: 17))
        #expect(try CroboxColor.parse("#800e1111") == RGBAColor(red: 14, green: 17, blue: 17, alpha: 128))
        #expect(try CroboxColor.parse("rgba(204, 204, 204, 0.5)") == RGBAColor(red: 204, green: 204, blue: 204, alpha: 128))
        #expect(try CroboxColor.parse("RGBA(0,0,0,1)") == RGBAColor(red: 0, green: 0, blue: 0, alpha: 255))
        for bad in ["", "#fff", "#12345", "#gggggg", "rgba(1,2,3)", "rgba(256,0,0,1)", "rgba(1,2,3,1.5)", "red", "rgba(1,2,3,nan)"] {
            #expect {
                try CroboxColor.parse(bad)
            } throws: { ($0 as? EngageError)?.code == .invalidInput }
        }
    }
}
