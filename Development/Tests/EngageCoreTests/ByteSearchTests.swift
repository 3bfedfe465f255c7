@_spi(EngageProvider) @testable import EngageCore
import EngageTesting
import EngageTestTraits
import Foundation
import Testing

@Suite("Byte search in answer bodies", .bounded)
struct ByteSearchTests {
    @Test("finds a run at the start, in the middle and at the end, and nothing that is not there")
    func positions() {
        let body = Data(#"{"errors":[{"message":"x","extensions":{"code":"invalid-jwt"}}]}"#.utf8)
        #expect(body.containsBytes(Data(#"{"errors""#.utf8)))
        #expect(body.containsBytes(Data("invalid-jwt".utf8)))
        #expect(body.containsBytes(Data(#"}]}"#.utf8)))
        #expect(!body.containsBytes(Data("invalid-jwT".utf8)))
        #expect(!body.containsBytes(Data(#""data""#.utf8)))
    }

    @Test("an empty needle is found, a needle longer than the body is not, an empty body holds only the empty needle")
    func edges() {
        let body = Data("abc".utf8)
        #expect(body.containsBytes(Data()))
        #expect(!body.containsBytes(Data("abcd".utf8)))
        #expect(Data().containsBytes(Data()))
        #expect(!Data().containsBytes(Data("a".utf8)))
        #expect(body.containsBytes(body))
    }

    @Test("a partial match followed by the real one is found (the search does not skip past a false start)")
    func overlappingFalseStarts() {
        #expect(Data("aaab".utf8).containsBytes(Data("aab".utf8)))
        #expect(Data(#""error""errors""#.utf8).containsBytes(Data(#""errors""#.utf8)))
    }

    @Test("a slice of a larger buffer is searched from its own start, not its storage's")
    func slices() {
        let whole = Data("errors-and-more".utf8)
        let tail = whole.dropFirst(7)
        #expect(tail.containsBytes(Data("and".utf8)))
        #expect(!tail.containsBytes(Data("errors".utf8)))
    }

    @Test("agrees with a naive search over 2 000 random bodies and needles (seeded)")
    func agreesWithNaiveSearch() {
        var random = SeededGenerator(seed: 0xB17E)
        for _ in 0..<2_000 {
            // A small alphabet, so that matches and false starts are common.
            let body = Data((0..<Int.random(in: 0...64, using: &random)).map { _ in UInt8.random(in: 97...99, using: &random) })
            let needle = Data((0..<Int.random(in: 0...5, using: &random)).map { _ in UInt8.random(in: 97...99, using: &random) })
            // The reference: every start position in turn.
            let expected =
                needle.isEmpty
                || (body.count >= needle.count && (0...(body.count - needle.count)).contains { body.dropFirst($0).starts(with: needle) })
            #expect(body.containsBytes(needle) == expected, "body \(Array(body)), needle \(Array(needle))")
        }
    }
}
