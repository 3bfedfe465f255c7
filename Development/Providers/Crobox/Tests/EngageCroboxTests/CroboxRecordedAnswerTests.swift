@_spi(EngageProvider) @testable import EngageCrobox
@_spi(EngageProvider) @testable import EngageTesting
import CroboxEmulator
import EngageTestTraits
import Foundation
import Testing

/// The promotions answer as the official Crobox SDK decodes it, recorded in
/// `Development/Providers/Crobox/Tests/Fixtures` (the README gives each file's source), and as a drifting backend
/// might send it.
@Suite("Crobox: the recorded official answer, and a drifted one, decode", .bounded)
struct CroboxRecordedAnswerTests {
    static func data(_ name: String) throws -> Data {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "Fixtures")
        return try Data(contentsOf: folder.appendingPathComponent(name))
    }

    static func recorded(_ name: String) throws -> CroboxPromotionsResponse {
        try JSONDecoder().decode(CroboxPromotionsResponse.self, from: data(name))
    }

    /// The emulator writes its answer itself (not with the client's types): it must have the recorded
    /// answer's keys and JSON types, for product promotions, a page-level one and a control group's.
    /// `document` with each content's `config` (a free map of strings, keys chosen in Crobox's admin)
    /// emptied, after checking that its values are all strings.
    static func withoutConfigKeys(_ document: Any, sourceLocation: SourceLocation = #_sourceLocation) -> Any {
        guard var object = document as? [String: Any], let promotions = object["promotions"] as? [[String: Any]] else { return document }
        object["promotions"] = promotions.map { promotion -> [String: Any] in
            guard var content = promotion["content"] as? [String: Any] else { return promotion }
            let config = content["config"] as? [String: Any] ?? [:]
            #expect(config.values.allSatisfy { $0 is String }, "config values are strings", sourceLocation: sourceLocation)
            content["config"] = [String: Any]()
            var changed = promotion
            changed["content"] = content
            return changed
        }
        return object
    }

    @Test("the emulator answers in the official document's shape")
    func emulatorShape() async throws {
        let recorded = Self.withoutConfigKeys(try JSONSerialization.jsonObject(with: Self.data("promotions-official.json")))
        for configuration in [CroboxEmulator.Configuration(), .init(campaigns: CroboxEmulator.Configuration.controlGroupCampaigns)] {
            try await CroboxEmulatorHarness.run(CroboxEmulator(configuration: configuration)) { harness async throws in
                for products in [["Product1", "Product3", "Product8"], []] {
                    let reply = try await harness.promotions(productIDs: products)
                    #expect(reply.status == 200)
                    let answer = Self.withoutConfigKeys(try JSONSerialization.jsonObject(with: reply.body))
                    let differences = JSONShape.differences(answer, from: recorded, exact: false)
                    #expect(differences.isEmpty, "\(differences)")
                    let promotions = try #require((answer as? [String: Any])?["promotions"] as? [[String: Any]])
                    #expect(promotions.count == max(products.count, 1))
                    #expect(promotions.allSatisfy { $0["id"] != nil && $0["campaignId"] != nil && $0["variantId"] != nil })
                    #expect(promotions.allSatisfy { ($0["content"] == nil) == configuration.campaigns[0].isControl })
                }
            }
        }
    }

    @Test("the SDK's own test document: context, campaigns, promotions and their content")
    func official() throws {
        let response = try Self.recorded("promotions-official.json")
        #expect(response.context.visitorID == UUID(uuidString: "722D78A6-ADA6-4E03-B903-2F6869185912"))
        #expect(response.context.groupName == "Campaign 1 : Crobox + Campaign 2: Crobox")
        #expect(response.context.campaigns.map(\.id) == [1, 2] && response.context.campaigns.allSatisfy { !$0.isControl })
        #expect(response.promotions.map(\.productID) == ["Product1", "Product2"])
        let first = try #require(response.promotions.first?.content)
        #expect(first.messageID == "dd737bf6-0223-48e8-b102-b680265219ef" && first.componentName == "component1.tsx")
        #expect(first.config == ["Text1_color": "#aaaaaa", "Text1_text": "Campaign 1 text"])
        #expect(response.droppedPromotionCount == 0 && response.droppedValueCount == 0)
    }

    /// Before, a missing content id, one non-string config value or one bad promotion id failed the
    /// whole answer (a decoding error): no promotion at all reached the app.
    @Test("a drifted answer: both good promotions and every string config value are kept; the bad promotion alone is dropped")
    func drifted() throws {
        let response = try Self.recorded("promotions-drifted.json")
        #expect(response.promotions.map(\.productID) == ["Product1", "Product2"])
        #expect(response.droppedPromotionCount == 1)
        let first = try #require(response.promotions.first?.content)
        #expect(first.messageID == "", "a missing content id reads as empty, as the official SDK reads it")
        #expect(first.config == ["Text1_color": "#aaaaaa", "Text1_text": "Campaign 1 text"])
        #expect(response.promotions.last?.content?.config == ["Text2_color": "#bbbbbb", "Text2_text": "Campaign 2 text"])
        #expect(response.context.campaigns.map(\.isControl) == [false, false], "\"false\" is false")
        #expect(response.droppedValueCount == 2, "the number and the object among the config values")
    }
}
