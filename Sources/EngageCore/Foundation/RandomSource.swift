/// A source of uniformly distributed fractions in `0..<1`, injected wherever EngageKit uses randomness
/// (retry jitter, sampling), so that tests can be deterministic.
@_spi(EngageProvider) public protocol RandomSource: Sendable {
    /// A value in `0..<1`.
    func nextFraction() -> Double
}

/// The system's random number generator.
@_spi(EngageProvider) public struct SystemRandomSource: RandomSource {
    /// The system's generator.
    public init() {}

    /// A uniformly distributed value in `0..<1`.
    public func nextFraction() -> Double { Double.random(in: 0..<1) }
}

/// SplitMix64's step: the project's one implementation of it (`EngageTesting`'s `SeededGenerator` and
/// the queue's batched idempotency keys use it). Each call advances `state` by the golden-ratio
/// increment and returns the mixed value; the outputs of 2^64 consecutive calls are all distinct.
package enum SplitMix64 {
    package static func next(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
