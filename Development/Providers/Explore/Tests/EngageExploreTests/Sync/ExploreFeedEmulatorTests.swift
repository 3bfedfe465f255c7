@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageExplore
@_spi(EngageProvider) @testable import EngageExploreCTX
@_spi(EngageProvider) @testable import EngageExploreGiftCards
import ExploreEmulator
import Foundation
import EngageTestTraits
import Testing

@Suite("Explore feed emulator", .bounded)
struct ExploreFeedEmulatorTests {
    @Test("generated directories are published on first request, once, and the feed's folder goes with it")
    func lazyGeneratedDirectories() async throws {
        let folder = try await Self.useGeneratedFeed()  // the feed is released when it returns
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    /// Exercises a feed with generated directories and returns its folder.
    private static func useGeneratedFeed() async throws -> URL {
        let feed = try ExploreFeedEmulator.withGeneratedDirectories(mainnetRows: 40)
        let folder = feed.folder
        let files = { (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.filter { $0.hasSuffix(".zip") } ?? [] }
        // Each publication is a plain archive for the feed and an encrypted one for the Firebase Storage shape.
        let archives = { files().filter { $0.hasPrefix("explore-") } }
        let objects = { files().filter { $0.hasPrefix("object-") } }
        #expect(files().isEmpty)  // nothing generated at start

        // Concurrent first requests generate the directory once.
        let manifests = try await withThrowingTaskGroup(of: ExploreFeedEmulator.Manifest?.self) { group in
            for _ in 0..<4 { group.addTask { try feed.manifest(for: .testnet) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(manifests.compactMap { $0 }).count == 1)
        #expect(manifests.allSatisfy { $0?.timestamp == 1_763_700_000_000 })
        #expect(archives().count == 1 && objects().count == 1)
        #expect(try feed.manifest(for: .mainnet)?.archive.contains("mainnet") == true)
        #expect(archives().count == 2 && objects().count == 2)

        // An explicit publication replaces the generated one.
        let replaced = try feed.publish(archive: Data("not a zip".utf8), network: .mainnet, timestamp: 5)
        #expect(try feed.manifest(for: .mainnet) == replaced)
        return folder
    }

    @Test("a feed given a folder leaves it in place")
    func givenFolderIsKept() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("feed-kept-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var feed: ExploreFeedEmulator? = try ExploreFeedEmulator(folder: folder)
        #expect(try feed?.manifest(for: .mainnet) == nil)
        feed = nil
        #expect(FileManager.default.fileExists(atPath: folder.path))
    }
}
