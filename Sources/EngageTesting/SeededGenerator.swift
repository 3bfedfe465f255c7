import EngageCore

/// A deterministic, seedable random number generator (SplitMix64): the project's one seeded generator.
///
/// Emulators use it for seed data and opaque tokens so that a run is reproducible from its seed, tests
/// for generated inputs, and ``SeededRandomSource`` for an injected jitter source.
/// It is a value type: copy it to fork a stream, or derive independent streams with
/// ``init(seed:stream:)``.
///
/// ```swift
/// var generator = SeededGenerator(seed: 42)
/// let price = Int.random(in: 100...9_999, using: &generator)
/// ```
public struct SeededGenerator: RandomNumberGenerator, Sendable, Hashable {
    /// The current internal state; the next output is derived from it.
    public private(set) var state: UInt64

    /// Creates a generator whose sequence is fully determined by `seed`.
    public init(seed: UInt64) {
        self.state = seed
    }

    /// Creates a generator for a named stream derived from `seed`.
    ///
    /// Different stream names give independent-looking sequences, and the same `(seed, stream)` pair
    /// always gives the same sequence, on every platform and in every process (the stream name is
    /// hashed with FNV-1a, not with Swift's per-process randomised `Hasher`).
    public init(seed: UInt64, stream: String) {
        var mixer = SeededGenerator(seed: seed ^ Self.fnv1a(stream))
        self.state = mixer.next()
    }

    /// Returns the next 64 random bits.
    public mutating func next() -> UInt64 {
        SplitMix64.next(&state)
    }

    /// Returns `byteCount` random bytes rendered as lowercase hexadecimal (two characters a byte).
    public mutating func nextHex(byteCount: Int) -> String {
        var text = ""
        text.reserveCapacity(byteCount * 2)
        var remaining = byteCount
        while remaining > 0 {
            let word = next()
            for shift in stride(from: 56, through: 0, by: -8) where remaining > 0 {
                let byte = UInt8(truncatingIfNeeded: word >> UInt64(shift))
                text += byte < 16 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
                remaining -= 1
            }
        }
        return text
    }

    /// 64-bit FNV-1a of the UTF-8 bytes of `text`: a stable hash for stream names.
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}
