@_spi(EngageProvider) @testable import EngageCore
@_spi(EngageProvider) @testable import EngageTesting
import EngageTestTraits
import Testing

@Suite("Seeded generator", .bounded)
struct SeededGeneratorTests {
    @Test("matches the SplitMix64 reference outputs")
    func referenceVector() {
        var generator = SeededGenerator(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(generator.next() == 0x06C4_5D18_8009_454F)
    }

    @Test("the same seed and stream give the same sequence; other streams or seeds differ")
    func streams() {
        func draw(_ generator: SeededGenerator) -> [UInt64] {
            var generator = generator
            return (0..<4).map { _ in generator.next() }
        }
        let first = draw(SeededGenerator(seed: 7, stream: "items"))
        #expect(first == draw(SeededGenerator(seed: 7, stream: "items")))
        #expect(first != draw(SeededGenerator(seed: 7, stream: "users")))
        #expect(first != draw(SeededGenerator(seed: 8, stream: "items")))
    }

    @Test("nextHex renders the requested number of bytes")
    func hex() {
        var generator = SeededGenerator(seed: 1)
        let text = generator.nextHex(byteCount: 5)
        #expect(text.count == 10)
        #expect(text.allSatisfy { "0123456789abcdef".contains($0) })
        var again = SeededGenerator(seed: 1)
        #expect(again.nextHex(byteCount: 5) == text)
    }
}
