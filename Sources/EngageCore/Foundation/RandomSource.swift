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
