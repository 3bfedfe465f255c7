@_spi(EngageProvider) import EngageCrobox
import EngageTestTraits
import Foundation
import Testing

/// The promotions answer as the official Crobox SDK decodes it, recorded in
/// `Providers/Crobox/Tests/Fixtures` (the README gives each file's source), and as a drifting backend
/// might send it.
@Suite("Crobox: the recorded official answer, and a drifted one, decode", .bounded)
struct CroboxRecordedAnswerTests {
    static func recorded(_ name: String) throws -> CroboxPromotionsResponse {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "Fixtures")
        return try JSONDecoder().decode(CroboxPromotionsResponse.self, from: Data(contentsOf: folder.appendingPathComponent(name)))
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
