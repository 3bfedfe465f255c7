/// A source of uniformly distributed fractions in `0..<1`, injected wherever EngageKit uses randomness
/// (retry jitter, sampling), so that tests can be deterministic.
public protocol RandomSource: Sendable {
    /// A value in `0..<1`.
    func nextFraction() -> Double
}

/// The system's random number generator.
public struct SystemRandomSource: RandomSource {
    /// The system's generator.
    public init() {}

    /// A uniformly distributed value in `0..<1`.
    public func nextFraction() -> Double { Double.random(in: 0..<1) }
}

/// A deterministic SplitMix64 sequence: the same seed always yields the same fractions.
public final class SeededRandomSource: RandomSource {
    private let state: Locked<UInt64>

    /// A sequence determined by `seed`.
    public init(seed: UInt64) {
        state = Locked(seed)
    }

    /// The next value of the sequence, in `0..<1`.
    public func nextFraction() -> Double {
        let bits = state.withLock { state -> UInt64 in
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        return Double(bits >> 11) / Double(UInt64(1) << 53)
    }
}
