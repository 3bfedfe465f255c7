@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageCrobox
@_spi(EngageProvider) @testable import EngageTesting
import Foundation
import EngageTestTraits
import Testing

/// Crobox's public `Codable` values: hostile JSON decodes to a value or an error, never a trap.
@Suite("Hostile input: Crobox Codable values", .bounded)
struct CroboxHostileValueTests {
    @Test("products, badges, promotion contents and contexts, page types and dialects")
    func croboxValues() throws {
        var problems: [String] = []
        problems += try HostileJSON.problems(decoding: CroboxProduct(id: "sku-1", price: 19.99, quantity: 2), seed: 301)
        problems += try HostileJSON.problems(
            decoding: CroboxTextBadge(text: "-20%", fontColor: "#fff", backgroundColor: "#e00", borderColor: nil), seed: 302)
        problems += try HostileJSON.problems(decoding: CroboxImageBadge(image: "https://cdn.example.com/b.png", altText: "Sale"), seed: 303)
        problems += try HostileJSON.problems(decoding: CroboxSecondaryMessaging(text: "Only 3 left", fontColor: "#333"), seed: 304)
        problems += try HostileJSON.problems(
            decoding: CroboxPromotionContent(
                messageID: UUID().uuidString, componentName: "TextBadge", config: ["text": "Hot", "fontColor": "#fff"]),
            seed: 305
        )
        problems += try HostileJSON.problems(
            decoding: CroboxPromotionContext(
                campaigns: [CroboxCampaign(id: 1, name: "Spring", variantID: 2, variantName: "B", isControl: false)], groupName: "g",
                visitorID: UUID(), sessionID: UUID()
            ),
            seed: 306
        )
        problems += try HostileJSON.problems(decoding: CroboxPageType.detail, seed: 307)
        problems += try HostileJSON.problems(decoding: CroboxDialect.allCases[0], seed: 308)
        #expect(problems.isEmpty, "\(problems)")
    }
}
