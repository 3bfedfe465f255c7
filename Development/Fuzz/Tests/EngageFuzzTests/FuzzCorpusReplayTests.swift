import EngageFuzzTargets
import EngageTestTraits
import Foundation
import Testing

/// Every input of the checked-in fuzz corpus (`Development/Fuzz/Corpus/<target>`), the seeds and every input a
/// fuzzer found that once crashed, run through its target in the ordinary test run: a parser change
/// that brings a crash back fails here, without a fuzzer.
@Suite("Fuzz corpus replay", .bounded(.heavy))
struct FuzzCorpusReplayTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Corpus")

    static func inputs(_ target: FuzzTarget) -> [URL] {
        let folder = corpus.appendingPathComponent(target.rawValue)
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        return files.filter { !$0.lastPathComponent.hasPrefix(".") }.sorted { $0.path < $1.path }
    }

    @Test("every target has a seed corpus", arguments: FuzzTarget.allCases)
    func hasSeeds(_ target: FuzzTarget) {
        #expect(Self.inputs(target).count >= 3, "\(target.rawValue) needs seeds in Development/Fuzz/Corpus/\(target.rawValue)")
    }

    @Test("the provider-answers target reaches Crobox, Warply, Youll and Sovendus")
    func providerAnswersReachEveryProvider() async throws {
        let file = try #require(Self.inputs(.providerAnswers).first)
        let paths = await FuzzTarget.answerAllProviders(with: try Data(contentsOf: file))
        for provider in ["/crobox/", "/warply/", "/youll/", "/sovendus/"] {
            #expect(paths.contains { $0.hasPrefix(provider) }, "no request to \(provider): \(paths)")
        }
    }

    @Test("every corpus input runs through its target and returns", arguments: FuzzTarget.allCases)
    func replay(_ target: FuzzTarget) async throws {
        for file in Self.inputs(target) {
            await target.run(try Data(contentsOf: file))
        }
    }
}

@_spi(EngageProvider) @testable import EngageExplore

/// The seeds reach deep: a fuzzer mutating an archive that never opens explores nothing.
@Suite("Fuzz seeds", .bounded)
struct FuzzSeedTests {
    @Test("the zip seeds open: stored, deflated with a comment, and WinZip-AES with the target's password")
    func zipSeedsOpen() throws {
        let folder = FuzzCorpusReplayTests.corpus.appendingPathComponent("zip-archive")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-seed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        for name in ["stored.zip", "deflated-with-comment.zip", "aes256-password-fuzz.zip"] {
            let database = scratch.appendingPathComponent(name + ".db")
            let unpacked = try ExploreArchive.extractDatabase(
                from: folder.appendingPathComponent(name), to: database, maxBytes: 1 << 20, password: "fuzz")
            #expect(unpacked.database.bytes == 1_040, "\(name)")
        }
    }
}
