import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension Data {
    /// Whether these bytes contain `needle` as a contiguous run; an empty needle is always found.
    ///
    /// Response policies ask this of every answer body (is there an `"errors"` key, an `invalid-jwt`
    /// code) before they parse anything. `Data.range(of:)` answers it through `NSData` on Linux, which
    /// cost about 90 µs for an 18 KB feed. This looks for the needle's first byte with `memchr` and
    /// compares the rest with `memcmp` at each candidate.
    package func containsBytes(_ needle: Data) -> Bool {
        guard !needle.isEmpty else { return true }
        guard needle.count <= count else { return false }
        return withUnsafeBytes { haystack in
            needle.withUnsafeBytes { pattern in
                guard let base = haystack.baseAddress, let first = pattern.first, let patternBase = pattern.baseAddress else {
                    return false
                }
                // The last position a match can start at, and the next one to look from.
                let lastStart = haystack.count - pattern.count
                var offset = 0
                while offset <= lastStart {
                    guard let found = memchr(base + offset, Int32(first), lastStart - offset + 1) else { return false }
                    let start = base.distance(to: UnsafeRawPointer(found))
                    if memcmp(base + start, patternBase, pattern.count) == 0 { return true }
                    offset = start + 1
                }
                return false
            }
        }
    }
}
