import Foundation

/// CRC-32C (Castagnoli, the reflected polynomial 0x82F63B78), the checksum the Dash wallet's directory
/// generator publishes for `explore.db` and uses as the archive's password. None of the package's
/// libraries computes it (ZIPFoundation's CRC-32 is the IEEE polynomial). Fed in pieces with
/// ``update(_:)``; the check value of "123456789" is `e3069283`.
package struct CRC32C: Sendable, Hashable {
    /// The checksum of everything fed so far.
    package private(set) var value: UInt32 = 0

    /// A checksum of nothing yet.
    package init() {}

    /// Adds `bytes` to the checksum.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var crc = ~value
        Self.table.withUnsafeBufferPointer { table in
            for byte in bytes {
                crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
            }
        }
        value = ~crc
    }

    /// Adds the bytes of `data` to the checksum.
    package mutating func update(_ data: some ContiguousBytes) {
        data.withUnsafeBytes { update($0) }
    }

    /// The checksum as the generator writes it: lower-case hex without leading zeros (Kotlin's
    /// `Long.toString(16)`), so `0x0a1b2c3d` is `a1b2c3d`.
    package var hex: String { String(value, radix: 16) }

    /// The value of a published checksum: one to eight hex digits, either case, leading zeros or not;
    /// `nil` for anything else.
    package static func value(ofPublished checksum: String) -> UInt32? {
        guard (1...8).contains(checksum.utf8.count), checksum.utf8.allSatisfy({ $0.isHexDigit }) else { return nil }
        return UInt32(checksum, radix: 16)
    }

    private static let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 {
            crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1
        }
        return crc
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool { (48...57).contains(self) || (65...70).contains(self) || (97...102).contains(self) }
}
