@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageExploreCTX
@_spi(EngageProvider) @testable import EngageExploreGiftCards
@_spi(EngageProvider) @testable import EngageTesting
import EngageTestTraits
import ExploreEmulator
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The directory feed's manifest as recorded in `Development/Providers/Explore/Tests/Fixtures/Feed` (this project's
/// format): the client reads it, and the feed emulator, whose manifest type is its own, answers in its
/// shape.
@Suite("Explore feed: client and emulator speak the recorded manifest", .bounded)
struct ExploreFeedRecordedAnswerTests {
    static let recorded = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/Feed/manifest.json")

    @Test("the client reads the recorded manifest, and it passes the client's checks")
    func clientReadsTheRecording() throws {
        let manifest = try JSONDecoder().decode(ExploreFeedManifest.self, from: Data(contentsOf: Self.recorded))
        #expect(manifest.timestamp == 1_763_700_000_000 && manifest.size == 31_457_280)
        #expect(manifest.archive == "explore-mainnet-1763700000000.zip" && manifest.checksum.count == 64)
        try manifest.validate(maxBytes: 64 << 20)
    }

    @Test("the emulator's manifest.json has the recorded keys and JSON types")
    func emulatorAnswersTheRecordedShape() async throws {
        let harness = try await ExploreFeedHarness()
        defer { Task { await harness.stop() } }
        try harness.publish(timestamp: 1_763_700_000_000)
        let (body, response) = try await URLSession.shared.data(from: harness.feedURL.appendingPathComponent("mainnet/manifest.json"))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let answer = try JSONSerialization.jsonObject(with: body)
        let differences = JSONShape.differences(
            answer, from: try JSONSerialization.jsonObject(with: Data(contentsOf: Self.recorded)), exact: true)
        #expect(differences.isEmpty, "\(differences)")
    }
}
