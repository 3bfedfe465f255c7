@_spi(EngageProvider) import EngageCore

/// A deterministic `RandomSource` over a ``SeededGenerator``: the same seed always yields the same
/// fractions, so retry jitter and sampling are reproducible in tests.
@_spi(EngageProvider) public final class SeededRandomSource: RandomSource {
    private let generator: Locked<SeededGenerator>

    /// A sequence determined by `seed`.
    public init(seed: UInt64) {
        generator = Locked(SeededGenerator(seed: seed))
    }

    /// The next value of the sequence, in `0..<1` (the generator's top 53 bits).
    public func nextFraction() -> Double {
        let bits = generator.withLock { $0.next() }
        return Double(bits >> 11) / Double(UInt64(1) << 53)
    }
}
